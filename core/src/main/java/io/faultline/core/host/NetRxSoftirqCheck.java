package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Whether one CPU ran most of the NET_RX softirqs between the two samples (the Netmarble RPS case).
 * Host-wide: {@code /proc/softirqs} counts the whole machine's CPUs even inside a container.
 */
final class NetRxSoftirqCheck implements HostCheck {

  @Override
  public String name() {
    return "NET_RX softirq spread";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.HOST;
  }

  @Override
  public CheckResult run(DoctorContext context) {
    Optional<long[]> first = context.first().netRxPerCpu();
    if (first.isEmpty()) {
      return CheckResult.unknown(name(), scope(), "cannot read NET_RX from /proc/softirqs");
    }
    if (context.second().isEmpty() || context.second().get().netRxPerCpu().isEmpty()) {
      return CheckResult.notSampled(name(), scope(), "since boot: " + describe(first.get()));
    }
    long[] a = first.get();
    long[] b = context.second().get().netRxPerCpu().get();
    int cpus = Math.min(a.length, b.length);
    long[] delta = new long[cpus];
    for (int i = 0; i < cpus; i++) {
      delta[i] = Math.max(0, b[i] - a[i]);
    }
    Duration elapsed =
        Duration.between(context.first().takenAt(), context.second().get().takenAt());
    double seconds = Math.max(elapsed.toMillis(), 1) / 1000.0;
    long total = 0;
    int busiest = 0;
    for (int i = 0; i < cpus; i++) {
      total += delta[i];
      if (delta[i] > delta[busiest]) {
        busiest = i;
      }
    }
    double rate = total / seconds;
    double share = total == 0 ? 0 : (double) delta[busiest] / total;
    String evidence =
        String.format(
            "in %.1f s: %.0f NET_RX/s over %d CPUs, CPU%d took %.0f%%",
            seconds, rate, cpus, busiest, share * 100);
    DoctorOptions o = context.options();
    if (cpus < 2 || rate < o.netRxMinRate()) {
      return CheckResult.of(
          name(),
          scope(),
          evidence,
          List.of(),
          List.of(
              cpus < 2
                  ? "one CPU: nothing to spread"
                  : "too little receive traffic to judge (below " + o.netRxMinRate() + "/s)"));
    }
    if (share < o.netRxMaxShare()) {
      return CheckResult.of(name(), scope(), evidence, List.of(), List.of());
    }
    Finding finding =
        Finding.of(HostFindingTypes.NET_RX_SOFTIRQ_ON_ONE_CPU, "CPU" + busiest)
            .message(
                String.format(
                    "CPU%d handled %.0f%% of %.0f NET_RX softirqs/s across %d CPUs",
                    busiest, share * 100, rate, cpus))
            .evidence("cpu", busiest)
            .evidence("share", Math.round(share * 1000) / 1000.0)
            .evidence("net_rx_per_second", Math.round(rate))
            .evidence("cpus", cpus)
            .build();
    return CheckResult.of(name(), scope(), evidence, List.of(finding), List.of());
  }

  private static String describe(long[] counts) {
    StringBuilder sb = new StringBuilder("NET_RX per CPU");
    for (int i = 0; i < counts.length && i < 16; i++) {
      sb.append(i == 0 ? " " : ", ").append("CPU").append(i).append('=').append(counts[i]);
    }
    if (counts.length > 16) {
      sb.append(", ... (").append(counts.length).append(" CPUs)");
    }
    return sb.toString();
  }
}
