package io.faultline.examples.demo;

import java.time.Duration;

/** A transaction left open, which holds back vacuum (and MultiXact clean-up) behind it. */
final class LongTransactionScene implements Scene {

  @Override
  public String name() {
    return "long-transaction";
  }

  @Override
  public String title() {
    return "a transaction left open";
  }

  @Override
  public String incident() {
    return "Channel.io PostgreSQL outage: one long transaction let MultiXacts pile up";
  }

  @Override
  public String expected() {
    return "PG_LONG_TRANSACTION";
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    ctx.console.line(
        "The service opens a transaction, reads, and leaves it open for 20 s (the demo's threshold"
            + " is jooq.health.long-transaction="
            + DemoLauncher.LONG_TRANSACTION_S
            + "s; the default is 5m).");
    ServiceProcess.Reply reply =
        ctx.call("opening the transaction", "long-transaction 20", Duration.ofSeconds(1));
    if (!reply.ok()) {
      return SceneOutcome.missed("service failed: " + reply.error());
    }
    ctx.console.line("Transaction " + reply.get("txid") + " is open.");
    var finding = ctx.awaitFinding(expected(), Duration.ofSeconds(20));
    if (finding.isEmpty()) {
      return SceneOutcome.missed("not reported");
    }
    String age =
        finding.get().evidence().entrySet().stream()
            .filter(e -> e.getKey().contains("age"))
            .map(e -> e.getKey() + "=" + e.getValue())
            .findFirst()
            .orElse(finding.get().subject());
    return SceneOutcome.found(age);
  }
}
