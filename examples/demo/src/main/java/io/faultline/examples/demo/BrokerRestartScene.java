package io.faultline.examples.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A broker restart with many clients reconnecting: the agent's reconnect gate holds each connection
 * to the lost broker back by a random delay, so the reconnects arrive spread out instead of as one
 * SYN burst.
 */
final class BrokerRestartScene implements Scene {

  private static final int PRODUCERS = 20;

  @Override
  public String name() {
    return "broker-restart";
  }

  @Override
  public String title() {
    return "a broker restart with " + PRODUCERS + " producers reconnecting";
  }

  @Override
  public String incident() {
    return "seed 000, LINE: 18k clients reconnecting at once filled the SYN queue";
  }

  @Override
  public String expected() {
    return "faultline.kafka.stagger.delay (the gate held reconnects)";
  }

  @Override
  public boolean needsKafka() {
    return true;
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    ctx.console.line(PRODUCERS + " producers each send a record every 100 ms.");
    ServiceProcess.Reply started =
        ctx.call("starting the producers", "fleet-start " + PRODUCERS, Duration.ofSeconds(10));
    if (!started.ok()) {
      return SceneOutcome.missed("service failed: " + started.error());
    }
    PrometheusText before = ctx.agent.metrics();
    double delaysBefore = count(before);
    ctx.service.call("fleet-mark", Duration.ofSeconds(10), s -> {});
    try (Console.Progress p =
        ctx.console.progress("restarting the broker", Duration.ofSeconds(20))) {
      ctx.broker.stop();
      p.tick("stopped");
      ctx.broker.start(p::tick);
    }
    long backAt = System.currentTimeMillis();
    try (Console.Progress p =
        ctx.console.progress("watching the producers reconnect", Duration.ofSeconds(8))) {
      long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
      while (System.nanoTime() < until) {
        p.tick();
        KafkaBroker.sleep(200);
      }
    }
    ServiceProcess.Reply report = ctx.service.call("fleet-report", Duration.ofSeconds(10), s -> {});
    ctx.service.call("fleet-stop", Duration.ofSeconds(30), s -> {});
    if (!report.ok()) {
      return SceneOutcome.missed("service failed: " + report.error());
    }
    List<Long> offsets = new ArrayList<>();
    Arrays.stream(report.get("first_acks").split(","))
        .mapToLong(Long::parseLong)
        .filter(t -> t > 0)
        .forEach(t -> offsets.add(t - backAt));
    Collections.sort(offsets);
    PrometheusText after = ctx.agent.metrics();
    double held = count(after) - delaysBefore;
    double maxDelay = after.max("faultline_kafka_stagger_delay_seconds_max", Map.of()).orElse(0);
    ctx.console.line(
        offsets.size()
            + " of "
            + PRODUCERS
            + " producers had a record acknowledged again; first acknowledgement after the broker"
            + " was back (ms):");
    ctx.console.line("  " + offsets);
    double spread =
        offsets.isEmpty() ? 0 : (offsets.get(offsets.size() - 1) - offsets.get(0)) / 1000.0;
    ctx.console.line(
        String.format(
            Locale.ROOT,
            "Spread %.2f s. The gate held %.0f reconnects back (longest %.2f s), drawn from"
                + " [0, kafka.stagger.window=3s).",
            spread,
            held,
            maxDelay));
    for (PrometheusText.Sample s : after.find("faultline_kafka_connect_attempts_total", Map.of())) {
      ctx.console.line(
          "  faultline_kafka_connect_attempts_total{outcome=\""
              + s.labels().get("outcome")
              + "\"} "
              + String.format(Locale.ROOT, "%.0f", s.value()));
    }
    String figure =
        String.format(
            Locale.ROOT,
            "%d reconnects spread over %.2f s, %.0f held",
            offsets.size(),
            spread,
            held);
    return held > 0 && offsets.size() >= PRODUCERS / 2
        ? SceneOutcome.found(figure)
        : SceneOutcome.missed(figure);
  }

  private static double count(PrometheusText metrics) {
    return metrics.sum("faultline_kafka_stagger_delay_seconds_count", Map.of()).orElse(0);
  }
}
