package io.faultline.it.agent;

import io.faultline.it.agent.StormSampler.Sample;
import java.util.Locale;
import java.util.OptionalLong;

/** The lab's table (Markdown) and its raw per-10 ms series (CSV). */
final class StormReport {

  private StormReport() {}

  /** The table comparing both phases. */
  static String table(ReconnectStorm.Result r) {
    ReconnectStorm.Scale s = r.scale();
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%d clients (%d JVMs x (%d idempotent producers + %d consumers), a record every %d ms"
                + " per producer, consumers' fetch.min.bytes %d and fetch.max.wait.ms %d); backlog %d"
                + " (socket.listen.backlog.size = somaxconn = tcp_max_syn_backlog);"
                + " kafka.stagger.window %d ms; times from the election's completion, observed for"
                + " %d s%n%n",
            s.clients(),
            s.jvms(),
            s.producersPerJvm(),
            s.consumersPerJvm(),
            s.sendInterval().toMillis(),
            s.fetch().minBytes(),
            s.fetch().maxWait().toMillis(),
            s.backlog(),
            s.window().toMillis(),
            s.observe().toSeconds()));
    out.append("| after the preferred leader election | gate off | gate on |\n");
    out.append("|---|---:|---:|\n");
    row(out, "peak new connections per 100 ms", r, p -> Long.toString(p.series().peakWithin(100)));
    row(out, "peak new connections per 10 ms", r, p -> Long.toString(p.series().peakWithin(10)));
    row(
        out,
        "peak handshakes per 100 ms (accepted + dropped by a full queue)",
        r,
        p -> Long.toString(p.series().peakHandshakesWithin(100)));
    row(
        out,
        "new connections accepted by the broker",
        r,
        p -> Long.toString(p.series().totalNewConnections()));
    row(out, "first reconnect after the election", r, p -> seconds(p.series().firstReconnectMs()));
    row(out, "time until every client is reconnected", r, p -> reconnected(p.series()));
    row(
        out,
        "... counted from the first reconnect",
        r,
        p -> seconds(p.series().allReconnectedAfterFirstMs()));
    row(out, "SyncookiesSent", r, p -> Long.toString(p.series().syncookiesSent()));
    row(out, "ListenOverflows", r, p -> Long.toString(p.series().listenOverflows()));
    row(out, "ListenDrops", r, p -> Long.toString(p.series().listenDrops()));
    row(
        out,
        "the gates' decisions for broker " + ReconnectStorm.RESTARTED + " (agents' own counters)",
        r,
        p -> p.gateDecisions().describe());
    row(out, "records acknowledged", r, p -> Long.toString(p.records().acked()));
    row(
        out,
        "records in the topic (distinct)",
        r,
        p -> Long.toString(p.records().distinctInTopic()));
    row(out, "acknowledged records lost", r, p -> Long.toString(p.records().lost()));
    row(out, "records duplicated", r, p -> Long.toString(p.records().duplicated()));
    row(out, "sends failed", r, p -> Long.toString(p.failed()));
    row(
        out,
        "sampler; largest gap between two samples",
        r,
        p ->
            String.format(
                Locale.ROOT, "%s; %.1f ms", p.series().sampler(), p.series().largestGapMs()));
    return out.toString();
  }

  private static String seconds(OptionalLong ms) {
    return ms.isPresent() ? String.format(Locale.ROOT, "%.2f s", ms.getAsLong() / 1000.0) : "-";
  }

  private static String reconnected(StormSeries series) {
    OptionalLong ms = series.allReconnectedMs();
    if (ms.isPresent()) {
      return String.format(Locale.ROOT, "%.2f s", ms.getAsLong() / 1000.0);
    }
    return "not within the observation ("
        + series.establishedAtEnd()
        + " of "
        + series.clients()
        + ")";
  }

  private interface Cell {
    String of(ReconnectStorm.Phase phase);
  }

  private static void row(StringBuilder out, String name, ReconnectStorm.Result r, Cell cell) {
    out.append("| ")
        .append(name)
        .append(" | ")
        .append(cell.of(r.off()))
        .append(" | ")
        .append(cell.of(r.on()))
        .append(" |\n");
  }

  /**
   * Every sample of both phases: milliseconds from the election, new connections since the previous
   * sample, and the cumulative counters from the election on.
   */
  static String csv(ReconnectStorm.Result r) {
    StringBuilder out =
        new StringBuilder(
            "gate,t_ms,new_connections,established,syncookies_sent,listen_overflows,listen_drops\n");
    for (ReconnectStorm.Phase p : new ReconnectStorm.Phase[] {r.off(), r.on()}) {
      StormSeries series = p.series();
      Sample base = series.atElection();
      for (int i = 1; i < series.samples().size(); i++) {
        Sample s = series.samples().get(i);
        out.append(p.gate() ? "on" : "off")
            .append(',')
            .append(String.format(Locale.ROOT, "%.1f", series.offsetMs(i)))
            .append(',')
            .append(series.newConnections(i))
            .append(',')
            .append(s.established())
            .append(',')
            .append(s.syncookiesSent() - base.syncookiesSent())
            .append(',')
            .append(s.listenOverflows() - base.listenOverflows())
            .append(',')
            .append(s.listenDrops() - base.listenDrops())
            .append('\n');
      }
    }
    return out.toString();
  }
}
