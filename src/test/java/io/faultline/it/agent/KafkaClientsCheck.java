package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent on one kafka-clients jar against a real broker: {@code KafkaTrafficApp}, a plain
 * producer and consumer with no Faultline code, in a child JVM with {@code -javaagent:}. Each Kafka
 * module either works or declines cleanly, and the check holds each to the one it took: with the
 * phases module on, {@code /metrics} must show the request phases per node, API and phase with sane
 * values; with the connections module on, the connection gauges; a module that found the library
 * without a method it advises must be {@code INCOMPATIBLE} with the method named, say so in one
 * line ({@code This library version is not supported; the application runs unchanged.}) and show 0
 * in its {@code faultline_agent_module_active} gauge. Either way the application produces and
 * consumes every record, nothing counts as an agent error and the application exits cleanly.
 *
 * <p>Shared by {@link KafkaAgentPhasesTest}, {@link KafkaAgentDeclinesUnsupportedClientsTest} and
 * the version matrix ({@link KafkaClientsMatrixTest}).
 */
final class KafkaClientsCheck {

  static final String PHASES = "kafka-clients-3.9-phases";
  static final String CONNECTIONS = "kafka-clients-3.9-connections";
  private static final String PHASE = "faultline_kafka_request_phase_seconds";
  private static final int RECORDS = 400;
  private static final Pattern MODULE =
      Pattern.compile(
          "\\{\"name\":\"(kafka-clients-[^\"]+)\",\"state\":\"([A-Z_]+)\",\"reason\":(null|\"[^\"]*\")");

  private KafkaClientsCheck() {}

  /**
   * What one run showed: each Kafka module's state, the reason of each that is off, and a one-line
   * account of what was checked.
   */
  record Outcome(Map<String, String> states, Map<String, String> reasons, String checked) {

    /** The modules that declined the library ({@code INCOMPATIBLE}), in name order. */
    List<String> declined() {
      return states.entrySet().stream()
          .filter(e -> e.getValue().equals("INCOMPATIBLE"))
          .map(Map.Entry::getKey)
          .toList();
    }
  }

  /** Runs the check and requires every Kafka module to have instrumented the library. */
  static Outcome instrumented(KafkaCluster kafka, String label, Path kafkaClientsJar)
      throws Exception {
    Outcome outcome = run(kafka, label, kafkaClientsJar);
    assertThat(outcome.declined())
        .as("kafka-clients %s: modules that declined it; %s", label, outcome.reasons())
        .isEmpty();
    return outcome;
  }

  /** Runs the application on {@code kafkaClientsJar} and checks each module's part. */
  static Outcome run(KafkaCluster kafka, String label, Path kafkaClientsJar) throws Exception {
    String topic = "phases-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    int port = Http.freePort();
    Path ready = KafkaTraffic.readyFile();
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
    try (ChildJvm.Running running =
        KafkaTraffic.start(child, kafka, topic, RECORDS, 20000, ready)) {
      KafkaTraffic.awaitReady(running, ready);
      assertThat(Files.readString(ready))
          .as("the application ran with kafka-clients %s", label)
          .isEqualTo("produced=" + RECORDS + " consumed=" + RECORDS);
      String base = "http://127.0.0.1:" + port;
      // The modules have met kafka-clients' classes by now: the app has produced and consumed.
      String agent = Http.awaitOk(base + "/faultline/agent", Duration.ofSeconds(10)).body();
      ChildJvm.save("kafka-clients-" + label + ".agent.json", agent);
      Map<String, String> states = new TreeMap<>();
      Map<String, String> reasons = new TreeMap<>();
      Matcher m = MODULE.matcher(agent);
      while (m.find()) {
        states.put(m.group(1), m.group(2));
        if (!m.group(2).equals("ACTIVE")) {
          reasons.put(m.group(1), m.group(3));
        }
      }
      System.out.println("kafka-clients " + label + " with the agent: " + states);
      reasons.forEach((k, v) -> System.out.println("  " + k + ": " + v));
      assertThat(states)
          .as("/faultline/agent: %s", agent)
          .containsKeys(PHASES, CONNECTIONS, "kafka-clients-3.9-stagger");
      assertThat(states.values()).as("no Kafka module failed").doesNotContain("FAILED");
      Outcome outcome = new Outcome(states, reasons, "");
      List<String> checked = new java.util.ArrayList<>();
      checked.add(RECORDS + " records produced and consumed");

      String scrape =
          states.get(CONNECTIONS).equals("ACTIVE")
              ? awaitSampledConnections(base)
              : Http.awaitOk(base + "/metrics", Duration.ofSeconds(10)).body();
      PrometheusText metrics = PrometheusText.parse(scrape);
      String page = Http.awaitOk(base + "/", Duration.ofSeconds(10)).body();
      ChildJvm.save("kafka-clients-" + label + ".metrics.txt", scrape);
      ChildJvm.save("kafka-clients-" + label + ".status.html", page);
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60);
      ChildJvm.save("kafka-clients-" + label + ".stderr.txt", result.stderr());

      if (states.get(PHASES).equals("ACTIVE")) {
        checked.add(phases(metrics, page, label));
      } else {
        assertThat(metrics.namesStartingWith("faultline_kafka_request_phase"))
            .as("no phases measured with the module off")
            .isEmpty();
      }
      if (states.get(CONNECTIONS).equals("ACTIVE")) {
        checked.add(connections(metrics, page));
      }
      List<String> off = outcome.declined();
      for (String module : off) {
        assertThat(reasons.get(module))
            .as("why %s is off", module)
            .contains("has no method matching");
        assertThat(result.stderr())
            .as("the agent says %s declined", module)
            .contains("instrumentation module " + module + " is off")
            .contains("This library version is not supported; the application runs unchanged.");
        assertThat(page).contains(module, "INCOMPATIBLE");
        var active =
            metrics.namesStartingWith("faultline_agent_module_active").stream()
                .flatMap(n -> metrics.find(n, Map.of("module", module)).stream())
                .toList();
        assertThat(active).as("%s's module gauge", module).hasSize(1);
        assertThat(active.get(0).value()).as("%s active", module).isZero();
      }
      if (!off.isEmpty()) {
        checked.add(
            String.join(", ", off)
                + " declined cleanly (INCOMPATIBLE, the \"not supported; the application runs"
                + " unchanged\" line, module gauge 0)");
      }
      assertThat(metrics.sum("faultline_agent_errors_total", labels()))
          .as("suppressed errors")
          .isZero();
      result.assertCleanExit();
      assertThat(result.stdout()).contains("bye");
      checked.add("0 agent errors, clean exit");
      return new Outcome(states, reasons, String.join("; ", checked));
    }
  }

  /**
   * /metrics once every client's connection to node 1 has been sampled (kafka.tcp.interval=1s): a
   * gauge set is there from the connection's start and NaN until its first sample; waiting for one
   * of them (the producer's) let the consumer's be read unsampled.
   */
  private static String awaitSampledConnections(String base) throws Exception {
    return Http.awaitMetrics(
        base + "/metrics",
        Duration.ofSeconds(10),
        m -> {
          var scaling =
              m.find("faultline_kafka_connection_window_scaling_boolean", labels("node_id", "1"));
          var rtt = m.find("faultline_kafka_connection_rtt_seconds", labels("node_id", "1"));
          return !scaling.isEmpty()
              && scaling.stream().noneMatch(s -> Double.isNaN(s.value()))
              && !rtt.isEmpty()
              && rtt.stream().allMatch(s -> s.value() > 0);
        });
  }

  /** The request phases of the producer's and the consumer's requests; returns what was seen. */
  private static String phases(PrometheusText metrics, String page, String label) {
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
    double transmits = metrics.sum(PHASE + "_count", with(produce, "phase", "transmit"));
    assertThat(transmits)
        .as("produce requests timed; meters: %s", metrics.namesStartingWith("faultline_kafka"))
        .isGreaterThanOrEqualTo(20);
    double receives = metrics.sum(PHASE + "_count", with(fetch, "phase", "receive"));
    assertThat(receives).as("fetch responses timed").isGreaterThan(0);
    double produceResponses =
        metrics.sum(PHASE + "_count", with(produce, "phase", "delivery"))
            + metrics.sum(PHASE + "_count", with(produce, "phase", "response_incl_delivery"));
    assertThat(produceResponses)
        .as("every acked produce request has a delivery or a merged response phase")
        .isEqualTo(metrics.sum(PHASE + "_count", with(produce, "phase", "receive")));
    double deliveries = metrics.sum(PHASE + "_count", with(produce, "phase", "delivery"));
    assertThat(deliveries)
        .as("delivery measured through TCP_INFO for at least some produce requests")
        .isGreaterThan(0);
    double meanProduceLatency =
        (metrics.sum(PHASE + "_sum", produce))
            / metrics.sum(PHASE + "_count", with(produce, "phase", "queue"));
    assertThat(meanProduceLatency).as("mean produce latency, s").isBetween(1e-5, 5.0);
    for (var sample : metrics.find(PHASE + "_max", labels())) {
      assertThat(sample.value()).as("%s", sample).isBetween(0.0, 60.0);
    }
    assertThat(metrics.sum("faultline_kafka_request_gap_seconds_count", produce)).isGreaterThan(0);
    assertThat(page)
        .contains("Broker connections", "traffic-producer")
        .contains("p50 / p99 in milliseconds")
        .containsPattern("node 1 produce \\(\\d+\\)");
    return String.format(
        Locale.ROOT,
        "phases: %.0f produce requests timed (%.0f deliveries via TCP_INFO), %.0f fetch responses",
        transmits,
        deliveries,
        receives);
  }

  /** The connection gauges of node 1; returns what was seen. */
  private static String connections(PrometheusText metrics, String page) {
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
    return "connections: window-scaling and RTT gauges of node 1 for client types "
        + rtt.stream().map(r -> r.labels().get("client_type")).sorted().toList();
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
