package io.faultline.examples.demo;

import java.time.Duration;
import java.util.Map;

/**
 * The Channel.io PostgreSQL outage: a nested jOOQ transaction after {@code SELECT ... FOR UPDATE}
 * makes a MultiXact.
 */
final class SavepointScene implements Scene {

  @Override
  public String name() {
    return "savepoint";
  }

  @Override
  public String title() {
    return "nested jOOQ transaction after SELECT ... FOR UPDATE";
  }

  @Override
  public String incident() {
    return "Channel.io PostgreSQL outage: MultiXact SLRU waits, 15-minute outage";
  }

  @Override
  public String expected() {
    return "JOOQ_SAVEPOINT_AFTER_ROW_LOCK";
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    ctx.console.line(
        "The service locks account 1 (SELECT ... FOR UPDATE), then updates it inside a nested");
    ctx.console.line("dsl.transaction(), which jOOQ runs as a SAVEPOINT.");
    ServiceProcess.Reply reply =
        ctx.call("running the transaction", "savepoint", Duration.ofSeconds(2));
    if (!reply.ok()) {
      return SceneOutcome.missed("service failed: " + reply.error());
    }
    ctx.console.line(
        "Committed; balance now "
            + reply.get("balance")
            + ". Row versions whose xmax is a MultiXact (the locker and the updater, read with"
            + " pageinspect): "
            + reply.get("multixact_tuples")
            + ".");
    var finding = ctx.awaitFinding(expected(), Duration.ofSeconds(15));
    ctx.agent.findings().stream()
        .filter(f -> f.id().equals("JOOQ_NESTED_TRANSACTION"))
        .findFirst()
        .ifPresent(f -> ctx.console.line("Also: JOOQ_NESTED_TRANSACTION at " + f.subject()));
    double savepoints =
        ctx.agent
            .metrics()
            .sum("faultline_jooq_savepoints_total", Map.of("outcome", "created"))
            .orElse(0);
    String figure =
        String.format(
            "%.0f savepoint, %s MultiXact tuple", savepoints, reply.get("multixact_tuples"));
    return finding.isPresent() ? SceneOutcome.found(figure) : SceneOutcome.missed(figure);
  }
}
