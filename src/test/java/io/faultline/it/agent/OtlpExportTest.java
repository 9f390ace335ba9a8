package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpServer;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent's OTLP export, configured the way a pod set up for the OpenTelemetry agent already is
 * ({@code OTEL_EXPORTER_OTLP_ENDPOINT}, {@code OTEL_SERVICE_NAME}, {@code
 * OTEL_RESOURCE_ATTRIBUTES}, {@code OTEL_EXPORTER_OTLP_HEADERS}), received by a collector stand-in
 * that decodes every request with the official OTLP protobuf definitions ({@code
 * io.opentelemetry.proto}) — no OpenTelemetry Collector or Prometheus with an OTLP receiver can be
 * installed here. A producer and a consumer on a real broker give the Kafka phase histograms data.
 */
@ExtendWith(RealServers.class)
@Timeout(240)
class OtlpExportTest {

  @Test
  void metricsArriveWithNamesUnitsTemporalityBucketsAndTheResource(KafkaCluster kafka)
      throws Exception {
    List<String> bodies = new CopyOnWriteArrayList<>();
    List<String> authorizations = new CopyOnWriteArrayList<>();
    HttpServer collector =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    collector.createContext(
        "/v1/metrics",
        exchange -> {
          bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    collector.start();
    String topic = "otlp-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    Path ready = Files.createTempFile("kafka-app", ".ready");
    Files.delete(ready);
    try {
      ChildJvm child =
          ChildJvm.on(Jdk.current())
              .agentArgs("prometheus.port=0,otlp.interval=1s")
              .env(
                  "OTEL_EXPORTER_OTLP_ENDPOINT",
                  "http://127.0.0.1:" + collector.getAddress().getPort())
              .env("OTEL_SERVICE_NAME", "orders")
              .env("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test,service.name=ignored")
              .env("OTEL_EXPORTER_OTLP_HEADERS", "Authorization=Bearer%20s3cret")
              .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
              .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
      try (ChildJvm.Running running =
          child.start(
              "io.faultline.it.agent.app.KafkaTrafficApp",
              kafka.bootstrapServers(),
              topic,
              "100",
              "1000",
              ready.toString())) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!(Files.exists(ready) && phasesIn(last(bodies)))
            && System.nanoTime() < deadline
            && running.isAlive()) {
          Thread.sleep(200);
        }
        running.send("stop");
        running.awaitExit(60).assertCleanExit();
      }
    } finally {
      collector.stop(0);
    }

    assertThat(bodies).as("OTLP requests received").isNotEmpty();
    assertThat(authorizations).allMatch("Bearer s3cret"::equals);
    ExportMetricsServiceRequest.Builder request = ExportMetricsServiceRequest.newBuilder();
    JsonFormat.parser().merge(last(bodies), request);
    var resourceMetrics = request.getResourceMetrics(0);
    Map<String, String> resource =
        resourceMetrics.getResource().getAttributesList().stream()
            .collect(Collectors.toMap(KeyValue::getKey, kv -> kv.getValue().getStringValue()));
    assertThat(resource)
        .containsEntry("service.name", "orders")
        .containsEntry("deployment.environment", "test");
    var scope = resourceMetrics.getScopeMetrics(0);
    assertThat(scope.getScope().getName()).isEqualTo("io.faultline.agent");
    Map<String, Metric> metrics =
        scope.getMetricsList().stream()
            .collect(Collectors.toMap(Metric::getName, m -> m, (a, b) -> a));

    Metric phase = metrics.get("faultline.kafka.request.phase");
    assertThat(phase).as("the phase histogram in %s", metrics.keySet()).isNotNull();
    assertThat(phase.getUnit()).isEqualTo("s");
    assertThat(phase.getHistogram().getAggregationTemporality())
        .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    HistogramDataPoint point =
        phase.getHistogram().getDataPointsList().stream()
            .filter(p -> p.getCount() > 0)
            .findFirst()
            .orElseThrow();
    assertThat(point.getExplicitBoundsList()).hasSize(12).isSorted();
    assertThat(point.getBucketCountsList()).hasSize(13);
    assertThat(point.getBucketCountsList().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(point.getCount());
    assertThat(point.getAttributesList()).extracting(KeyValue::getKey).contains("node.id", "api");

    Metric raised = metrics.get("faultline.findings.raised");
    assertThat(raised).as("a counter in %s", metrics.keySet()).isNotNull();
    assertThat(raised.getSum().getIsMonotonic()).isTrue();
    assertThat(raised.getSum().getAggregationTemporality())
        .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    assertThat(metrics.values()).anyMatch(Metric::hasGauge);
  }

  private static String last(List<String> bodies) {
    return bodies.isEmpty() ? "" : bodies.get(bodies.size() - 1);
  }

  private static boolean phasesIn(String body) {
    return body.contains("\"faultline.kafka.request.phase\"");
  }
}
