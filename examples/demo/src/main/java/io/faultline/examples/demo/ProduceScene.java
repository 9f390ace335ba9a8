package io.faultline.examples.demo;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Producing to the broker: the agent times each request in phases per broker node, and checks the
 * producer's configuration (here seed 000's {@code reconnect.backoff.ms} without a maximum).
 */
final class ProduceScene implements Scene {

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
    return "seed 000, LINE: 16 s producer latency the broker's own metrics did not show";
  }

  @Override
  public String expected() {
    return "KAFKA_RECONNECT_BACKOFF_NO_JITTER";
  }

  @Override
  public boolean needsKafka() {
    return true;
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    ctx.console.line(
        "A producer configured like seed 000's clients (reconnect.backoff.ms=1000 and nothing else)"
            + " sends 300 records to "
            + ctx.broker.bootstrapServers()
            + ".");
    ServiceProcess.Reply reply = ctx.call("producing", "produce 300", Duration.ofSeconds(5));
    if (!reply.ok()) {
      return SceneOutcome.missed("service failed: " + reply.error());
    }
    ctx.console.line(
        "All " + reply.get("acked") + " acknowledged in " + reply.get("elapsed_ms") + " ms.");
    var finding = ctx.awaitFinding(expected(), Duration.ofSeconds(15));
    PrometheusText metrics = ctx.agent.metrics();
    Map<String, double[]> byNode = new TreeMap<>();
    for (PrometheusText.Sample s :
        metrics.find(
            "faultline_kafka_request_phase_seconds_sum", Map.of("client_id", "orders-writer"))) {
      String node = s.labels().getOrDefault("node_id", "?");
      String phase = s.labels().getOrDefault("phase", "?");
      double count =
          metrics
              .sum(
                  "faultline_kafka_request_phase_seconds_count",
                  Map.of(
                      "client_id",
                      "orders-writer",
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
          byNode.keySet().stream().filter(k -> k.contains("PRODUCE")).findFirst().orElse(null);
      if (produce != null) {
        double[] r = byNode.get(produce);
        figure =
            String.format(
                Locale.ROOT,
                "node %s PRODUCE pre-broker %.2f ms",
                produce.split(" ")[0],
                r[0] + r[1] + r[2]);
      }
    }
    return finding.isPresent() && !byNode.isEmpty()
        ? SceneOutcome.found(figure)
        : SceneOutcome.missed(figure);
  }
}
