package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.it.examples.Json;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real Prometheus (Debian's {@code prometheus} package) scrapes an agent in a child JVM running a
 * Kafka producer and consumer against a real broker, with the shipped alert rules loaded. Every
 * query of {@code docs/grafana/faultline-dashboard.json} then runs through Prometheus's HTTP API:
 * all must be valid, and those of the panels this workload feeds (Kafka phases and their p99 from
 * the buckets, connections, the reconnect gate, findings) must return data. The phase histograms
 * must be consistent ({@code +Inf} bucket = count) and their series per broker node are printed.
 * Skipped, saying why, where Prometheus is not installed.
 */
@ExtendWith(RealServers.class)
class PrometheusScrapesAgentTest {

  /** Panels that must show data for a producer and a consumer on one broker. */
  private static final Set<String> FED =
      Set.of(
          "Request phases per node (mean)",
          "Time the broker cannot see (request gap)",
          "Request phases per node (p99)",
          "Transmit p99 per broker, every instance",
          "Window scaling negotiated",
          "Round-trip time",
          "Windows",
          "Throughput ceiling (peer window / RTT)",
          "Reconnect gate: connect attempts",
          "Active findings",
          "Findings raised");

  private static final String PHASE = "faultline_kafka_request_phase_seconds";

  @Test
  @SuppressWarnings("unchecked")
  void everyDashboardQueryRunsAndTheKafkaPanelsHaveData(KafkaCluster kafka) throws Exception {
    Path prometheus = PrometheusServer.executable().orElse(null);
    assumeTrue(
        prometheus != null,
        "prometheus is not installed (Debian: apt-get install prometheus; .ci/run installs it)");
    Path docs = Path.of(System.getProperty("faultline.it.docs.dir", "../../docs")).normalize();
    Map<String, Object> dashboard =
        (Map<String, Object>)
            Json.parse(
                Files.readString(
                    docs.resolve("grafana/faultline-dashboard.json"), StandardCharsets.UTF_8));

    String topic = "prometheus-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    int port = Http.freePort();
    Path ready = Files.createTempFile("kafka-app", ".ready");
    Files.delete(ready);
    long started = System.currentTimeMillis();
    try (PrometheusServer server =
        PrometheusServer.start(
            prometheus,
            List.of(new PrometheusServer.Job("traffic", List.of(port))),
            List.of(docs.resolve("prometheus/faultline-rules.yml")))) {
      ChildJvm child =
          ChildJvm.on(Jdk.current())
              .agentArgs(
                  "prometheus.port="
                      + port
                      + ",kafka.tcp.interval=1s,kafka.phases.delivery-after=0ms")
              .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
              .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
      // 1000 batches of 20 (acks=all, each awaited): traffic over several 1 s scrapes even on an
      // in-process broker, as the panels' rate() needs two scrapes of a counter that moved.
      try (ChildJvm.Running running =
          child.start(
              "io.faultline.it.agent.app.KafkaTrafficApp",
              kafka.bootstrapServers(),
              topic,
              "20000",
              "500",
              ready.toString())) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!Files.exists(ready) && System.nanoTime() < deadline && running.isAlive()) {
          Thread.sleep(200);
        }
        assertThat(ready).as("the application produced and consumed").exists();
        // A few more scrapes of the connection gauges and the settled counters.
        awaitSeries(server, "faultline_kafka_connection_rtt_seconds", Duration.ofSeconds(30));
        Thread.sleep(5_000);
        long seconds = (System.currentTimeMillis() - started) / 1000 + 5;

        List<String> problems = new ArrayList<>();
        Map<String, Integer> seriesByPanel = new TreeMap<>();
        for (Map<String, Object> panel : panels(dashboard)) {
          String title = (String) panel.get("title");
          boolean anyData = false;
          for (Map<String, Object> target :
              (List<Map<String, Object>>) panel.getOrDefault("targets", List.of())) {
            String expr = ((String) target.get("expr")).replace("$instance", ".*");
            Map<String, Object> data;
            try {
              data = server.queryRange(expr, seconds);
            } catch (AssertionError e) {
              problems.add("'" + title + "' does not run: " + e.getMessage());
              continue;
            }
            int withData = seriesWithFiniteValues((List<Map<String, Object>>) data.get("result"));
            seriesByPanel.merge(title, withData, Integer::sum);
            anyData |= withData > 0;
          }
          if (FED.contains(title) && !anyData) {
            problems.add("'" + title + "' has no data");
          }
        }
        System.out.println("dashboard panels: series with data over the run");
        seriesByPanel.forEach(
            (title, n) -> System.out.printf(Locale.ROOT, "  %3d  %s%n", n, title));
        assertThat(problems).as("Prometheus log:%n%s", server.log()).isEmpty();

        assertHistogramsConsistent(server);
        printSeriesPerNode(server);

        Map<String, Object> rules = server.rules();
        List<Map<String, Object>> groups = (List<Map<String, Object>>) rules.get("groups");
        assertThat(groups).as("rule groups loaded").hasSize(4);
        for (Map<String, Object> group : groups) {
          for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
            assertThat(rule.get("health"))
                .as("rule %s: %s", rule.get("name"), rule.get("lastError"))
                .isIn("ok", "unknown");
          }
        }
        running.send("stop");
        running.awaitExit(60).assertCleanExit();
      }
    }
  }

  /** Every phase histogram's {@code +Inf} bucket is its count, in Prometheus as scraped. */
  @SuppressWarnings("unchecked")
  private static void assertHistogramsConsistent(PrometheusServer server) throws Exception {
    Map<String, Object> mismatched =
        server.query(PHASE + "_count != ignoring(le) " + PHASE + "_bucket{le=\"+Inf\"}");
    assertThat((List<Object>) mismatched.get("result")).as("count != +Inf bucket").isEmpty();
    Map<String, Object> buckets = server.query("count(" + PHASE + "_bucket)");
    assertThat((List<Object>) buckets.get("result")).as("phase buckets scraped").isNotEmpty();
  }

  /** The number the docs state: Faultline's Kafka series per client type and broker node. */
  @SuppressWarnings("unchecked")
  private static void printSeriesPerNode(PrometheusServer server) throws Exception {
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put(
        "histogram series (phase + gap)",
        "count by (client_type, node_id) ({__name__=~\"faultline_kafka_request_(phase|gap)_seconds_(bucket|count|sum)\"})");
    queries.put(
        "histograms (tag sets)",
        "count by (client_type, node_id) ({__name__=~\"faultline_kafka_request_(phase|gap)_seconds_count\"})");
    queries.put(
        "every faultline_kafka series with a node_id",
        "count by (client_type, node_id) ({__name__=~\"faultline_kafka_.+\", node_id!=\"\"})");
    System.out.println("series per client type and broker node (node -1: bootstrap)");
    for (Map.Entry<String, String> q : queries.entrySet()) {
      for (Map<String, Object> r :
          (List<Map<String, Object>>) server.query(q.getValue()).get("result")) {
        Map<String, Object> metric = (Map<String, Object>) r.get("metric");
        System.out.printf(
            Locale.ROOT,
            "  %-45s %-9s node %-3s %s%n",
            q.getKey(),
            metric.get("client_type"),
            metric.get("node_id"),
            ((List<Object>) r.get("value")).get(1));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static int seriesWithFiniteValues(List<Map<String, Object>> result) {
    int n = 0;
    for (Map<String, Object> series : result) {
      for (Object point : (List<Object>) series.get("values")) {
        String value = (String) ((List<Object>) point).get(1);
        if (!value.equals("NaN") && !value.endsWith("Inf")) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  @SuppressWarnings("unchecked")
  private static void awaitSeries(PrometheusServer server, String name, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!((List<Object>) server.query(name).get("result")).isEmpty()) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError(
        "Prometheus has no " + name + " after " + timeout + ":\n" + server.log());
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> panels(Map<String, Object> dashboard) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> panel : (List<Map<String, Object>>) dashboard.get("panels")) {
      if (!"row".equals(panel.get("type"))) {
        out.add(panel);
      }
    }
    return out;
  }
}
