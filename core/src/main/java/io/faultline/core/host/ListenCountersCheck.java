package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Whether the listen-queue counters rose between the two samples: overflows and drops (attempts
 * lost), SYN cookies sent (the queue overflowed into cookies). Per network namespace.
 */
final class ListenCountersCheck implements HostCheck {

  /** The counters compared, all {@code TcpExt}. */
  public static final List<String> COUNTERS =
      List.of(
          "SyncookiesSent",
          "SyncookiesRecv",
          "SyncookiesFailed",
          "ListenOverflows",
          "ListenDrops",
          "TCPReqQFullDoCookies",
          "TCPReqQFullDrop");

  private static final List<String> DROPS =
      List.of("ListenOverflows", "ListenDrops", "TCPReqQFullDrop");
  private static final List<String> COOKIES = List.of("SyncookiesSent", "TCPReqQFullDoCookies");

  @Override
  public String name() {
    return "listen queue counters";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.NETWORK_NAMESPACE;
  }

  @Override
  public CheckResult run(DoctorContext context) {
    NetCounters first = context.first().counters();
    if (first.get("TcpExt.SyncookiesSent").isEmpty()) {
      return CheckResult.unknown(
          name(), scope(), "cannot read TcpExt counters from " + context.proc().netDirectory());
    }
    if (context.second().isEmpty()) {
      return CheckResult.notSampled(name(), scope(), "since boot: " + totals(first));
    }
    HostSample second = context.second().get();
    Duration elapsed = Duration.between(context.first().takenAt(), second.takenAt());
    double seconds = Math.max(elapsed.toMillis(), 1) / 1000.0;
    Map<String, Long> deltas = new LinkedHashMap<>();
    for (String name : COUNTERS) {
      OptionalLong a = first.get("TcpExt." + name);
      OptionalLong b = second.counters().get("TcpExt." + name);
      if (a.isPresent() && b.isPresent()) {
        deltas.put(name, Math.max(0, b.getAsLong() - a.getAsLong()));
      }
    }
    StringBuilder evidence = new StringBuilder("in ").append(seconds).append(" s:");
    deltas.forEach((k, v) -> evidence.append(' ').append(k).append("=+").append(v));
    List<Finding> findings = new ArrayList<>();
    addIfRising(
        findings,
        HostFindingTypes.LISTEN_QUEUE_OVERFLOWING,
        "listen queues",
        DROPS,
        deltas,
        seconds,
        "connection attempts dropped by full listen queues");
    addIfRising(
        findings,
        HostFindingTypes.SYN_COOKIES_SENT,
        "SYN queue",
        COOKIES,
        deltas,
        seconds,
        "SYNs answered with cookies");
    return CheckResult.of(name(), scope(), evidence.toString(), findings, List.of());
  }

  private static void addIfRising(
      List<Finding> findings,
      io.faultline.core.finding.FindingType type,
      String subject,
      List<String> counters,
      Map<String, Long> deltas,
      double seconds,
      String what) {
    long total = 0;
    for (String c : counters) {
      total += deltas.getOrDefault(c, 0L);
    }
    if (total == 0) {
      return;
    }
    Finding.Builder f = Finding.of(type, subject);
    StringBuilder detail = new StringBuilder();
    for (String c : counters) {
      long d = deltas.getOrDefault(c, 0L);
      f.evidence(c + "_delta", d);
      f.evidence(c + "_per_second", Math.round(d / seconds * 100) / 100.0);
      if (d > 0) {
        detail.append(detail.length() == 0 ? "" : ", ").append(c).append(" +").append(d);
      }
    }
    f.evidence("sample_seconds", seconds);
    findings.add(f.message(what + " in " + seconds + " s: " + detail).build());
  }

  private static String totals(NetCounters counters) {
    StringBuilder sb = new StringBuilder();
    for (String name : COUNTERS) {
      OptionalLong v = counters.get("TcpExt." + name);
      if (v.isPresent()) {
        sb.append(sb.length() == 0 ? "" : " ").append(name).append('=').append(v.getAsLong());
      }
    }
    return sb.toString();
  }
}
