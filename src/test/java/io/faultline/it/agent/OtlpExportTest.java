package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpServer;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
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
 * installed here. A producer and a consumer on a real broker give the Kafka phase histograms data,
 * exported with explicit buckets by default and with base-2 exponential ones when the SDK's {@code
 * OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION} asks for them.
 */
@ExtendWith(RealServers.class)
@Timeout(240)
class OtlpExportTest {

  @Test
  void metricsArriveWithNamesUnitsTemporalityBucketsAndTheResource(KafkaCluster kafka)
      throws Exception {
    Received received = export(kafka, Map.of());
    List<String> bodies = received.bodies();
    List<String> authorizations = received.authorizations();
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

  @Test
  void theSdksExponentialAggregationGivesExponentialPhaseHistograms(KafkaCluster kafka)
      throws Exception {
    Received received =
        export(
            kafka,
            Map.of(
                "OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION",
                "base2_exponential_bucket_histogram"));
    assertThat(received.bodies()).as("OTLP requests received").isNotEmpty();
    ExportMetricsServiceRequest.Builder request = ExportMetricsServiceRequest.newBuilder();
    JsonFormat.parser().merge(last(received.bodies()), request);
    Metric phase =
        request.getResourceMetrics(0).getScopeMetrics(0).getMetricsList().stream()
            .filter(m -> m.getName().equals("faultline.kafka.request.phase"))
            .findFirst()
            .orElseThrow();
    assertThat(phase.getUnit()).isEqualTo("s");
    assertThat(phase.hasExponentialHistogram()).as("exponential: %s", phase).isTrue();
    assertThat(phase.getExponentialHistogram().getAggregationTemporality())
        .isEqualTo(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE);
    List<ExponentialHistogramDataPoint> points =
        phase.getExponentialHistogram().getDataPointsList().stream()
            .filter(p -> p.getCount() > 0)
            .toList();
    assertThat(points).isNotEmpty();
    for (ExponentialHistogramDataPoint p : points) {
      assertThat(p.getScale()).isEqualTo(3);
      long inBuckets =
          p.getPositive().getBucketCountsList().stream().mapToLong(Long::longValue).sum();
      assertThat(inBuckets + p.getZeroCount()).as("buckets of %s", p).isEqualTo(p.getCount());
      // The mean lies between the lowest bucket's lower edge and the highest's upper edge, give or
      // take one bucket: each log-linear bucket's count goes to the exponential bucket holding its
      // midpoint, so a value may be counted one bucket from where it lies.
      double base = Math.pow(2, Math.pow(2, -p.getScale()));
      double lowest = Math.pow(base, p.getPositive().getOffset() - 1);
      double highest =
          Math.pow(base, p.getPositive().getOffset() + p.getPositive().getBucketCountsCount() + 1);
      assertThat(p.getSum() / p.getCount()).as("mean of %s", p).isBetween(lowest, highest);
      assertThat(lowest).as("phases last at least a microsecond").isGreaterThan(1e-7);
    }
  }

  /** What the collector stand-in received from one run of the traffic app. */
  private record Received(List<String> bodies, List<String> authorizations) {}

  /**
   * Runs the traffic app with the agent exporting every second to a collector stand-in, with the
   * SDK's variables above and {@code extraEnv}, until its phases arrive.
   */
  private static Received export(KafkaCluster kafka, Map<String, String> extraEnv)
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
      extraEnv.forEach(child::env);
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
    return new Received(bodies, authorizations);
  }

  private static String last(List<String> bodies) {
    return bodies.isEmpty() ? "" : bodies.get(bodies.size() - 1);
  }

  private static boolean phasesIn(String body) {
    return body.contains("\"faultline.kafka.request.phase\"");
  }
}
