package io.faultline.examples.demo;

import java.time.Duration;
import java.util.Optional;

/**
 * The Tencent CKafka incident: a connection made while the broker's host answers with SYN cookies
 * and the client's SYN lost its timestamp option on the way has no window scaling — a 64 KiB window
 * whatever the link. Needs the broker in a network namespace of the demo's own.
 */
final class WindowScaleScene implements Scene {

  @Override
  public String name() {
    return "lost-window-scale";
  }

  @Override
  public String title() {
    return "a producer connected through SYN cookies without TCP timestamps";
  }

  @Override
  public String incident() {
    return "Tencent CKafka incident: 300 KB/s on a 225 Mbps link";
  }

  @Override
  public String expected() {
    return "KAFKA_WINDOW_SCALING_OFF";
  }

  @Override
  public boolean needsKafka() {
    return true;
  }

  @Override
  public Optional<String> skipReason(DemoContext ctx) {
    return ctx.namespace == null
        ? Optional.of("the broker is not in a network namespace: " + ctx.namespaceWhyNot)
        : Optional.empty();
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    BrokerNamespace ns = ctx.namespace;
    ctx.console.line(
        "In the broker's network namespace: net.ipv4.tcp_syncookies=2 and an nftables rule that");
    ctx.console.line(
        "strips the timestamp option from SYNs to the Kafka port (what the Tencent CKafka"
            + " incident's NAT gateway did).");
    long cookiesBefore = ns.syncookiesSent();
    try {
      ns.loseWindowScaling(ctx.kafka.ports());
    } catch (java.io.IOException e) {
      ns.restoreHandshake();
      return SceneOutcome.skipped("could not change the namespace's handshake: " + e.getMessage());
    }
    try {
      ctx.console.line("A new producer connects and sends 200 records of 16 KiB.");
      ServiceProcess.Reply reply =
          ctx.call(
              "producing",
              "wscale-producer " + ctx.kafka.bootstrapServers() + " 200",
              Duration.ofSeconds(10));
      if (!reply.ok()) {
        return SceneOutcome.missed("service failed: " + reply.error());
      }
      long cookies = ns.syncookiesSent() - cookiesBefore;
      ctx.console.line(
          "Sent in "
              + reply.get("elapsed_ms")
              + " ms; the broker's kernel answered "
              + cookies
              + " SYNs with cookies.");
      var finding = ctx.awaitFinding(expected(), Duration.ofSeconds(15));
      if (finding.isEmpty()) {
        return SceneOutcome.missed("not reported");
      }
      var ev = finding.get().evidence();
      return SceneOutcome.found(
          "window "
              + ev.getOrDefault("window_bytes", "?")
              + " B, ceiling "
              + ev.getOrDefault("ceiling_bytes_per_second", "?")
              + " B/s");
    } finally {
      ns.restoreHandshake();
    }
  }
}
