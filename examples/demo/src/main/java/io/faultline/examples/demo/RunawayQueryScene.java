package io.faultline.examples.demo;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * A runaway query: {@code pg_sleep(30)} in a request's transaction, cancelled by the agent's {@code
 * jooq.statement-timeout} (set to {@value DemoLauncher#STATEMENT_TIMEOUT_S} s for the demo).
 */
final class RunawayQueryScene implements Scene {

  @Override
  public String name() {
    return "runaway-query";
  }

  @Override
  public String title() {
    return "a runaway query, cancelled by jooq.statement-timeout";
  }

  @Override
  public String incident() {
    return "Channel.io PostgreSQL outage: statements without a deadline held locks and connections";
  }

  @Override
  public String expected() {
    return "faultline.jooq.timeouts{kind=statement}";
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    ctx.console.line(
        "The service runs SELECT pg_sleep(30) in a transaction; the agent set statement_timeout="
            + DemoLauncher.STATEMENT_TIMEOUT_S
            + "s on the pool's connections.");
    ServiceProcess.Reply reply =
        ctx.call(
            "running the query",
            "runaway 30",
            Duration.ofSeconds(DemoLauncher.STATEMENT_TIMEOUT_S));
    if (!reply.ok()) {
      return SceneOutcome.missed("service failed: " + reply.error());
    }
    double seconds = Long.parseLong(reply.get("elapsed_ms")) / 1000.0;
    ctx.console.line(
        String.format(Locale.ROOT, "The query %s after %.1f s.", reply.get("outcome"), seconds));
    double timeouts =
        ctx.agent
            .metrics()
            .sum("faultline_jooq_timeouts_total", Map.of("kind", "statement"))
            .orElse(0);
    ctx.console.line(
        String.format(
            Locale.ROOT,
            "Faultline counted it: faultline_jooq_timeouts_total{kind=\"statement\"} = %.0f",
            timeouts));
    String figure =
        String.format(Locale.ROOT, "pg_sleep(30) %s after %.1f s", reply.get("outcome"), seconds);
    return reply.get("outcome").equals("cancelled") && timeouts >= 1
        ? SceneOutcome.found(figure)
        : SceneOutcome.missed(figure + ", timeouts counted: " + timeouts);
  }
}
