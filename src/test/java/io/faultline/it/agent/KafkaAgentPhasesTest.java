package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Kafka instrumentation end to end: a plain producer-and-consumer application with no Faultline
 * code runs in a child JVM with {@code -javaagent:} against a real broker, on kafka-clients 4.4
 * (the suite's own) and on the compatibility version (3.9.2). {@code /metrics} must show the
 * request phases per node, API and phase with sane values, the connection gauges, and no suppressed
 * errors.
 */
@ExtendWith(RealServers.class)
class KafkaAgentPhasesTest {

  private static final String PHASE = "faultline_kafka_request_phase_seconds";

  @Test
  void phasesAndConnectionsOnTheSuitesKafkaClients(KafkaCluster kafka) throws Exception {
    run(kafka, "current", ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class));
  }

  @Test
  void phasesAndConnectionsOnTheCompatibilityKafkaClients(KafkaCluster kafka) throws Exception {
    String jar = System.getProperty("faultline.it.kafka.compat.jar");
    assertThat(jar).as("faultline.it.kafka.compat.jar (set by src/test/pom.xml)").isNotNull();
    assertThat(Path.of(jar)).isRegularFile();
    run(kafka, System.getProperty("faultline.it.kafka.compat.version", "compat"), Path.of(jar));
  }

  private void run(KafkaCluster kafka, String label, Path kafkaClientsJar) throws Exception {
    String topic = "phases-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    int port = Http.freePort();
    Path ready = Files.createTempFile("kafka-app", ".ready");
    Files.delete(ready);
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            // delivery-after=0ms: every send is sampled, so the TCP_INFO delivery path is checked
            // whatever this machine's latency (by default only sends slower than 5 ms are).
            .agentArgs(
                "prometheus.port="
                    + port
                    + ",kafka.tcp.interval=1s,kafka.phases.delivery-after=0ms")
            .classPath(kafkaClientsJar)
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
    try (ChildJvm.Running running = KafkaTraffic.start(child, kafka, topic, 400, 20000, ready)) {
      KafkaTraffic.awaitReady(running, ready);
      assertThat(Files.readString(ready)).isEqualTo("produced=400 consumed=400");
      String base = "http://127.0.0.1:" + port;
      // Until every client's connection to node 1 has been sampled (kafka.tcp.interval=1s): the
      // gauges below. A gauge set is there from the connection's start and NaN until its first
      // sample; waiting for one of them (the producer's) let the consumer's be read unsampled.
      String scrape =
          Http.awaitMetrics(
              base + "/metrics",
              Duration.ofSeconds(10),
              m -> {
                var scaling =
                    m.find(
                        "faultline_kafka_connection_window_scaling_boolean",
                        labels("node_id", "1"));
                var rtt = m.find("faultline_kafka_connection_rtt_seconds", labels("node_id", "1"));
                return !scaling.isEmpty()
                    && scaling.stream().noneMatch(s -> Double.isNaN(s.value()))
                    && !rtt.isEmpty()
                    && rtt.stream().allMatch(s -> s.value() > 0);
              });
      PrometheusText metrics = PrometheusText.parse(scrape);
      String page = Http.awaitOk(base + "/", Duration.ofSeconds(10)).body();
      String agent = Http.awaitOk(base + "/faultline/agent", Duration.ofSeconds(10)).body();
      ChildJvm.save("kafka-phases-" + label + ".metrics.txt", scrape);
      ChildJvm.save("kafka-phases-" + label + ".status.html", page);
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60);
      ChildJvm.save("kafka-phases-" + label + ".stderr.txt", result.stderr());

      System.out.println("kafka-clients " + label + ": request phases (count, mean ms)");
      for (String api : List.of("produce", "fetch", "metadata")) {
        for (String phase :
            List.of(
                "queue", "transmit", "delivery", "response", "response_incl_delivery", "receive")) {
          Map<String, String> labels = labels("api", api, "phase", phase, "node_id", "1");
          double count = metrics.sum(PHASE + "_count", labels);
          double sum = metrics.sum(PHASE + "_sum", labels);
          if (count > 0) {
            System.out.printf(
                Locale.ROOT,
                "  %-9s %-23s n=%5.0f mean=%8.3f ms%n",
                api,
                phase,
                count,
                sum / count * 1000);
          }
        }
      }
      Map<String, String> produce =
          labels("api", "produce", "client_type", "producer", "node_id", "1");
      Map<String, String> fetch = labels("api", "fetch", "client_type", "consumer", "node_id", "1");
      assertThat(metrics.sum(PHASE + "_count", with(produce, "phase", "transmit")))
          .as("produce requests timed; meters: %s", metrics.namesStartingWith("faultline_kafka"))
          .isGreaterThanOrEqualTo(20);
      assertThat(metrics.sum(PHASE + "_count", with(fetch, "phase", "receive")))
          .as("fetch responses timed")
          .isGreaterThan(0);
      double produceResponses =
          metrics.sum(PHASE + "_count", with(produce, "phase", "delivery"))
              + metrics.sum(PHASE + "_count", with(produce, "phase", "response_incl_delivery"));
      assertThat(produceResponses)
          .as("every acked produce request has a delivery or a merged response phase")
          .isEqualTo(metrics.sum(PHASE + "_count", with(produce, "phase", "receive")));
      assertThat(metrics.sum(PHASE + "_count", with(produce, "phase", "delivery")))
          .as("delivery measured through TCP_INFO for at least some produce requests")
          .isGreaterThan(0);
      double meanProduceLatency =
          (metrics.sum(PHASE + "_sum", produce))
              / metrics.sum(PHASE + "_count", with(produce, "phase", "queue"));
      assertThat(meanProduceLatency).as("mean produce latency, s").isBetween(1e-5, 5.0);
      for (var sample : metrics.find(PHASE + "_max", labels())) {
        assertThat(sample.value()).as("%s", sample).isBetween(0.0, 60.0);
      }
      assertThat(metrics.sum("faultline_kafka_request_gap_seconds_count", produce))
          .isGreaterThan(0);

      var scaling =
          metrics.find("faultline_kafka_connection_window_scaling_boolean", labels("node_id", "1"));
      var rtt = metrics.find("faultline_kafka_connection_rtt_seconds", labels("node_id", "1"));
      System.out.println("  window scaling gauges: " + scaling);
      System.out.println("  rtt gauges: " + rtt);
      assertThat(scaling)
          .as("window scaling gauges; %s", metrics.namesStartingWith("faultline_kafka_connection"))
          .isNotEmpty();
      assertThat(scaling).allSatisfy(s -> assertThat(s.value()).isEqualTo(1.0));
      assertThat(rtt).isNotEmpty().allSatisfy(s -> assertThat(s.value()).isGreaterThan(0.0));
      assertThat(metrics.sum("faultline_agent_errors_total", labels()))
          .as("suppressed errors")
          .isZero();
      assertThat(agent)
          .contains(
              "kafka-clients-3.9-phases",
              "kafka-clients-3.9-connections",
              "kafka-clients-3.9-stagger");
      assertThat(agent).doesNotContain("INCOMPATIBLE", "FAILED");
      assertThat(page)
          .contains("Broker connections", "traffic-producer")
          .contains("p50 / p99 in milliseconds")
          .containsPattern("node 1 produce \\(\\d+\\)");
      result.assertCleanExit();
      assertThat(result.stdout()).contains("bye");
    }
  }

  private static Map<String, String> labels(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static Map<String, String> with(Map<String, String> base, String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(base);
    m.put(key, value);
    return m;
  }
}
