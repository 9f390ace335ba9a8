package io.faultline.examples.demo;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Producing to the brokers: the agent times each request in phases per broker node, which shows the
 * time a request spends before the broker has it — what broker-side metrics cannot see.
 */
final class ProduceScene implements Scene {

  private static long nodes(Map<String, double[]> byNode) {
    return byNode.keySet().stream()
        .map(k -> k.split(" ")[0])
        .filter(n -> !n.equals("bootstrap"))
        .distinct()
        .count();
  }

  private static final String[] PHASES = {"queue", "transmit", "delivery", "response", "receive"};

  @Override
  public String name() {
    return "produce";
  }

  @Override
  public String title() {
    return "producing to the broker, request phases per node";
  }

  @Override
  public String incident() {
    return "LINE Kafka incident: 16 s producer latency the broker's own metrics did not show";
  }

  @Override
  public String expected() {
    return "faultline.kafka.request.phase per node";
  }

  @Override
  public boolean needsKafka() {
    return true;
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    ctx.console.line(
        "A producer sends 300 records over all partitions of 'orders' to "
            + ctx.kafka.bootstrapServers()
            + ".");
    ServiceProcess.Reply reply = ctx.call("producing", "produce 300", Duration.ofSeconds(5));
    if (!reply.ok()) {
      return SceneOutcome.missed("service failed: " + reply.error());
    }
    ctx.console.line(
        "All " + reply.get("acked") + " acknowledged in " + reply.get("elapsed_ms") + " ms.");
    PrometheusText metrics = ctx.agent.metrics();
    Map<String, double[]> byNode = new TreeMap<>();
    for (PrometheusText.Sample s :
        metrics.find(
            "faultline_kafka_request_phase_seconds_sum", Map.of("client_type", "producer"))) {
      String node = s.labels().getOrDefault("node_id", "?");
      String phase = s.labels().getOrDefault("phase", "?");
      double count =
          metrics
              .sum(
                  "faultline_kafka_request_phase_seconds_count",
                  Map.of(
                      "client_type",
                      "producer",
                      "node_id",
                      node,
                      "phase",
                      phase,
                      "api",
                      s.labels().getOrDefault("api", "")))
              .orElse(0);
      if (count <= 0) {
        continue;
      }
      double[] row = byNode.computeIfAbsent(node + " " + s.labels().get("api"), k -> new double[6]);
      for (int i = 0; i < PHASES.length; i++) {
        if (PHASES[i].equals(phase)) {
          row[i] = s.value() / count * 1000;
        }
      }
      if (phase.equals("response_incl_delivery")) {
        row[5] = s.value() / count * 1000;
      }
    }
    String figure = "no request phases recorded";
    if (!byNode.isEmpty()) {
      ctx.console.line(
          "Mean time per request phase (ms), from faultline_kafka_request_phase_seconds:");
      ctx.console.line(
          String.format(
              Locale.ROOT,
              "  %-22s %8s %8s %8s %8s %8s",
              "node api",
              "queue",
              "transmit",
              "delivery",
              "response",
              "receive"));
      for (Map.Entry<String, double[]> e : byNode.entrySet()) {
        double[] r = e.getValue();
        ctx.console.line(
            String.format(
                Locale.ROOT,
                "  %-22s %8.2f %8.2f %8.2f %8.2f %8.2f",
                e.getKey(),
                r[0],
                r[1],
                r[2],
                r[3] > 0 ? r[3] : r[5],
                r[4]));
      }
      ctx.console.line(
          "queue + transmit + delivery is the time before the broker has the request: the part"
              + " broker metrics cannot see.");
      String produce =
          byNode.keySet().stream().filter(k -> k.endsWith(" produce")).findFirst().orElse(null);
      if (produce != null) {
        double[] r = byNode.get(produce);
        figure =
            String.format(
                Locale.ROOT,
                "%d nodes timed; node %s produce: %.2f ms before the broker had it",
                nodes(byNode),
                produce.split(" ")[0],
                r[0] + r[1] + r[2]);
      }
    }
    return nodes(byNode) >= 2 ? SceneOutcome.found(figure) : SceneOutcome.missed(figure);
  }
}
