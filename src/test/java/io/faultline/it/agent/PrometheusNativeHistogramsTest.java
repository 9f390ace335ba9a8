package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real Prometheus with native histograms on ({@code --enable-feature=native-histograms}) scrapes
 * an agent whose application produces and consumes on a real broker. Such a Prometheus asks for the
 * protobuf format, and the agent answers with the phase histograms' native buckets: {@code
 * histogram_quantile} and {@code histogram_count} then work on {@code
 * faultline_kafka_request_phase_seconds} itself, with no {@code _bucket} series and no bounds
 * chosen in advance.
 */
@ExtendWith(RealServers.class)
@Timeout(240)
class PrometheusNativeHistogramsTest {

  private static final String PHASE = "faultline_kafka_request_phase_seconds";

  @Test
  @SuppressWarnings("unchecked")
  void aPrometheusWithNativeHistogramsGetsThemAndComputesPercentiles(KafkaCluster kafka)
      throws Exception {
    Path prometheus = PrometheusServer.executable().orElse(null);
    assumeTrue(
        prometheus != null,
        "prometheus is not installed (Debian: apt-get install prometheus; .ci/run installs it)");
    String topic = "native-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    int port = Http.freePort();
    Path ready = KafkaTraffic.readyFile();
    try (PrometheusServer server =
        PrometheusServer.start(
            prometheus,
            List.of(new PrometheusServer.Job("traffic", List.of(port))),
            List.of(),
            List.of("--enable-feature=native-histograms"))) {
      ChildJvm child =
          KafkaTraffic.withClients(ChildJvm.on(Jdk.current()).agentArgs("prometheus.port=" + port));
      try (ChildJvm.Running running = KafkaTraffic.start(child, kafka, topic, 2000, 2000, ready)) {
        KafkaTraffic.awaitReady(running, ready);
        String count =
            "histogram_count(sum by (node_id) (" + PHASE + "{api=\"produce\",phase=\"queue\"}))";
        List<Map<String, Object>> counted = awaitResult(server, count, Duration.ofSeconds(30));
        assertThat(counted)
            .as("native histograms stored for %s; Prometheus log:%n%s", count, server.log())
            .isNotEmpty();
        double produced = value(counted.get(0));
        assertThat(produced).as("produce requests counted in the native histogram").isPositive();

        // Over everything counted (the application is done producing, so a rate would be 0).
        String p99 =
            "histogram_quantile(0.99, sum by (node_id) ("
                + PHASE
                + "{api=\"produce\",phase=\"queue\"}))";
        List<Map<String, Object>> quantiles = awaitResult(server, p99, Duration.ofSeconds(30));
        assertThat(quantiles).as("%s", p99).isNotEmpty();
        double seconds = value(quantiles.get(0));
        assertThat(seconds).as("produce queue p99, s").isBetween(1e-7, 10.0);
        // No classic buckets are stored for a histogram that has native ones.
        assertThat((List<Object>) server.query(PHASE + "_bucket").get("result")).isEmpty();
        System.out.printf(
            "native histograms: %.0f produce requests counted, queue p99 %.3f ms per node %s%n",
            produced, seconds * 1000, ((Map<String, Object>) quantiles.get(0).get("metric")));
        running.send("stop");
        running.awaitExit(60).assertCleanExit();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> awaitResult(
      PrometheusServer server, String expr, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Map<String, Object>> result = List.of();
    while (System.nanoTime() < deadline) {
      result = (List<Map<String, Object>>) server.query(expr).get("result");
      if (!result.isEmpty() && !Double.isNaN(value(result.get(0)))) {
        return result;
      }
      Thread.sleep(500);
    }
    return result;
  }

  @SuppressWarnings("unchecked")
  private static double value(Map<String, Object> sample) {
    List<Object> v = (List<Object>) sample.get("value");
    return Double.parseDouble((String) v.get(1));
  }
}
