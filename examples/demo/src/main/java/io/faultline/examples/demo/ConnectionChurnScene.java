package io.faultline.examples.demo;

import java.time.Duration;

/** The Elastic Beanstalk port exhaustion: a client that opens a new connection per request. */
final class ConnectionChurnScene implements Scene {

  static final int SECONDS = 6;
  static final int PER_SECOND = 60;

  @Override
  public String name() {
    return "connection-churn";
  }

  @Override
  public String title() {
    return "a client that opens a connection per request";
  }

  @Override
  public String incident() {
    return "Elastic Beanstalk port exhaustion: 27k sockets in TIME_WAIT, connect() errno 99";
  }

  @Override
  public String expected() {
    return "NET_CONNECTION_CHURN";
  }

  @Override
  public SceneOutcome play(DemoContext ctx) {
    ctx.console.line(
        "The service calls a backend "
            + PER_SECOND
            + " times a second for "
            + SECONDS
            + " s, a new TCP connection each time (no keep-alive, no pool).");
    ctx.console.line(
        "(The demo lowers net.churn.port-share to 0.01 so seconds, not minutes, show it.)");
    ServiceProcess.Reply reply =
        ctx.call(
            "sending requests", "churn " + SECONDS + " " + PER_SECOND, Duration.ofSeconds(SECONDS));
    if (!reply.ok()) {
      return SceneOutcome.missed("service failed: " + reply.error());
    }
    ctx.console.line(
        reply.get("requests")
            + " requests, each on its own connection, to "
            + reply.get("destination"));
    var finding = ctx.awaitFinding(expected(), Duration.ofSeconds(10));
    if (finding.isEmpty()) {
      return SceneOutcome.missed("not reported");
    }
    String rate = finding.get().evidence().getOrDefault("connects_per_second", "");
    return SceneOutcome.found(
        rate.isEmpty()
            ? reply.get("requests") + " connections in " + SECONDS + " s"
            : rate + " connects/s to " + finding.get().subject());
  }
}
