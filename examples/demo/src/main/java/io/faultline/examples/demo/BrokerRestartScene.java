package io.faultline.examples.demo;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A broker restart with many clients reconnecting (the LINE Kafka incident's rolling restart): node
 * 2 restarts while {@value #PRODUCERS} producers keep writing to partitions on both nodes. The
 * agent's reconnect gate holds each connection to the lost node back by a random delay in [0,
 * {@code kafka.stagger.window}), so the reconnects reach the broker spread out instead of as one
 * SYN burst. The connections are watched from the service's {@code /proc/PID/net/tcp}.
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
    return "LINE Kafka incident: 18k clients reconnecting at once filled the SYN queue";
  }

  @Override
  public String expected() {
    return "faultline.kafka.stagger.delay (gate held reconnects)";
  }

  @Override
  public boolean needsKafka() {
    return true;
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    ctx.console.line(
        PRODUCERS
            + " producers each send a record to every partition (on nodes 1 and 2) every 100 ms.");
    ServiceProcess.Reply started =
        ctx.call("starting the producers", "fleet-start " + PRODUCERS, Duration.ofSeconds(10));
    if (!started.ok()) {
      return SceneOutcome.missed("service failed: " + started.error());
    }
    KafkaBroker node2 = ctx.kafka.node(2);
    double heldBefore = held(ctx.agent.metrics());
    long backNanos;
    List<Long> offsets;
    try (Console.Progress p =
        ctx.console.progress("restarting broker node 2", Duration.ofSeconds(20))) {
      node2.stop();
      p.tick("stopped");
      try (ConnectionWatcher watcher = new ConnectionWatcher(ctx.service.pid(), node2.address())) {
        node2.start(p::tick);
        backNanos = System.nanoTime();
        p.close();
        try (Console.Progress w =
            ctx.console.progress("watching the producers reconnect", Duration.ofSeconds(8))) {
          long until = System.nanoTime() + Duration.ofSeconds(8).toNanos();
          while (System.nanoTime() < until) {
            w.tick();
            KafkaBroker.sleep(200);
          }
        }
        offsets = watcher.offsetsMs(backNanos);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return SceneOutcome.missed("interrupted");
      }
    }
    // read before the producers close: a closed client's gate meters are removed with it
    PrometheusText after = ctx.agent.metrics();
    ServiceProcess.Reply stopped = ctx.service.call("fleet-stop", Duration.ofSeconds(30), s -> {});

    double held = held(after) - heldBefore;
    double maxDelay = after.max("faultline_kafka_stagger_delay_seconds_max", Map.of()).orElse(0);
    ctx.console.line(
        offsets.size()
            + " connections to node 2 were made again; ms after node 2 was serving (first seen in"
            + " /proc/"
            + ctx.service.pid()
            + "/net/tcp):");
    ctx.console.line("  " + offsets);
    double spread =
        offsets.size() < 2 ? 0 : (offsets.get(offsets.size() - 1) - offsets.get(0)) / 1000.0;
    ctx.console.line(
        String.format(
            Locale.ROOT,
            "Spread over %.2f s: the gate held %.0f connection attempts back (longest %.2f s),"
                + " each by a delay drawn from [0, kafka.stagger.window=3s).",
            spread,
            held,
            maxDelay));
    for (PrometheusText.Sample s :
        after.find("faultline_kafka_connect_attempts_total", Map.of("node_id", "2"))) {
      ctx.console.line(
          String.format(
              Locale.ROOT,
              "  faultline_kafka_connect_attempts_total{node_id=\"2\",outcome=\"%s\"} %.0f",
              s.labels().get("outcome"),
              s.value()));
    }
    ctx.console.line(
        "Records acknowledged "
            + stopped.get("acked")
            + ", failed "
            + stopped.get("failed")
            + ": holding a reconnect back loses nothing.");
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

  private static double held(PrometheusText metrics) {
    return metrics.sum("faultline_kafka_stagger_delay_seconds_count", Map.of()).orElse(0);
  }
}
