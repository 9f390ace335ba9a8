package io.faultline.core.net.churn;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.finding.Severity;
import io.faultline.core.host.PortBudget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Turns connect counts into rates and raises {@link ChurnCatalog#NET_CONNECTION_CHURN} for a
 * destination whose rate, held for {@code sustainedIntervals} evaluations, keeps a large share of
 * the ephemeral ports in TIME_WAIT: every connection closed by this side occupies its port for 60
 * s, so {@code rate x 60} is the ports that destination keeps busy, and the range is the budget per
 * destination. Call {@link #evaluate()} every {@code net.churn.interval}.
 */
public final class ChurnMonitor {

  /** The thresholds, from {@link ChurnKeys}. */
  public record Settings(double portShare, double minRate, int sustainedIntervals) {

    /** The settings in {@code config}. */
    public static Settings from(FaultlineConfig config) {
      return new Settings(
          config.get(ChurnKeys.PORT_SHARE),
          config.get(ChurnKeys.MIN_RATE),
          config.get(ChurnKeys.SUSTAINED_INTERVALS));
    }
  }

  static final String SOURCE = "net.churn";

  private final ConnectChurn churn;
  private final Supplier<Optional<PortBudget>> budget;
  private final Findings findings;
  private final Settings settings;
  private final LongSupplier nanoClock;
  private final Map<String, Double> rates = new ConcurrentHashMap<>();
  private final Map<String, Integer> streaks = new HashMap<>();
  private Map<String, Long> lastTotals;
  private long lastAt;

  /**
   * A monitor of {@code churn} reading the port budget (of the namespace the connections leave
   * from) from {@code budget} and raising into {@code findings}.
   */
  public ChurnMonitor(
      ConnectChurn churn,
      Supplier<Optional<PortBudget>> budget,
      Findings findings,
      Settings settings,
      LongSupplier nanoClock) {
    this.churn = churn;
    this.budget = budget;
    this.findings = findings;
    this.settings = settings;
    this.nanoClock = nanoClock;
  }

  /** The connect rate (per second) of each destination over the last interval. */
  public double rate(String destination) {
    return rates.getOrDefault(destination, 0.0);
  }

  /**
   * Computes the rates since the previous call and replaces the churn findings with what holds now.
   * The first call only takes the starting counts.
   *
   * @return the churn findings active after this evaluation
   */
  public synchronized List<Finding> evaluate() {
    long now = nanoClock.getAsLong();
    Map<String, Long> totals = churn.totals();
    if (lastTotals == null || now <= lastAt) {
      lastTotals = totals;
      lastAt = now;
      return List.of();
    }
    double seconds = (now - lastAt) / 1e9;
    Optional<PortBudget> ports = budget.get();
    List<Finding> current = new ArrayList<>();
    for (Map.Entry<String, Long> entry : totals.entrySet()) {
      String destination = entry.getKey();
      double rate = (entry.getValue() - lastTotals.getOrDefault(destination, 0L)) / seconds;
      rates.put(destination, rate);
      // "other" mixes destinations, and the port budget is per destination.
      if (destination.equals(ConnectChurn.OTHER) || ports.isEmpty()) {
        continue;
      }
      int streak = isOver(rate, ports.get()) ? streaks.getOrDefault(destination, 0) + 1 : 0;
      streaks.put(destination, streak);
      if (streak >= settings.sustainedIntervals()) {
        current.add(finding(destination, rate, ports.get()));
      }
    }
    lastTotals = totals;
    lastAt = now;
    findings.replaceAll(SOURCE, current);
    return current;
  }

  private boolean isOver(double rate, PortBudget ports) {
    return rate >= settings.minRate()
        && rate * PortBudget.TIME_WAIT_SECONDS >= settings.portShare() * ports.ports();
  }

  private static Finding finding(String destination, double rate, PortBudget ports) {
    long held = Math.round(rate * PortBudget.TIME_WAIT_SECONDS);
    long range = ports.ports();
    boolean exhausts = held >= range;
    Finding.Builder finding =
        Finding.of(ChurnCatalog.NET_CONNECTION_CHURN, destination)
            .severity(exhausts ? Severity.CRITICAL : Severity.WARNING)
            .message(
                String.format(
                    "%.1f new connections/s to %s keep about %d ports in TIME_WAIT (60 s each):"
                        + " %d%% of the %d ephemeral ports%s; %d sockets in TIME_WAIT now,"
                        + " tcp_tw_reuse=%s",
                    rate,
                    destination,
                    held,
                    range == 0 ? 100 : Math.round(100.0 * held / range),
                    range,
                    exhausts ? String.format(", exhausted after about %.0f s", range / rate) : "",
                    ports.timeWait(),
                    ports.twReuseText()))
            .evidence("connects_per_second", Math.round(rate * 10) / 10.0)
            .evidence("projected_time_wait", held)
            .evidence("port_range_size", range)
            .evidence("time_wait_now", ports.timeWait())
            .evidence("tcp_tw_reuse", ports.twReuseText());
    if (exhausts) {
      finding.evidence("seconds_to_exhaustion", Math.round(range / rate));
    }
    return finding.build();
  }
}
