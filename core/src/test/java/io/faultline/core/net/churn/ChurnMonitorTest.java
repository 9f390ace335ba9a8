package io.faultline.core.net.churn;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.finding.Severity;
import io.faultline.core.host.PortBudget;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ChurnMonitorTest {

  private static final InetSocketAddress BACKEND =
      InetSocketAddress.createUnresolved("10.0.0.7", 8080);
  // 28,232 ports: Linux's default 32768-60999.
  private static final PortBudget DEFAULT_RANGE =
      new PortBudget(32768, 60999, 120, 40, OptionalLong.of(2));

  private final ConnectChurn churn = new ConnectChurn(8);
  private final AtomicLong nanos = new AtomicLong(1);
  private final Findings findings =
      new Findings(Duration.ofMinutes(10), Clock.systemUTC(), System.getLogger("test"));
  private final ChurnMonitor monitor =
      new ChurnMonitor(
          churn,
          () -> Optional.of(DEFAULT_RANGE),
          findings,
          new ChurnMonitor.Settings(0.5, 5.0, 3),
          nanos::get);

  @Test
  void aSustainedRateThatFillsHalfThePortsIsAWarning() {
    // 250/s x 60 s = 15,000 ports in TIME_WAIT: 53 % of 28,232.
    List<Finding> found = runIntervals(4, 250);

    assertThat(found)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo("NET_CONNECTION_CHURN");
              assertThat(f.subject()).isEqualTo("10.0.0.7:8080");
              assertThat(f.severity()).isEqualTo(Severity.WARNING);
              assertThat(f.evidence())
                  .containsEntry("connects_per_second", 250.0)
                  .containsEntry("projected_time_wait", 15000L)
                  .containsEntry("port_range_size", 28232L)
                  .containsEntry("time_wait_now", 120L)
                  .doesNotContainKey("seconds_to_exhaustion");
            });
    assertThat(monitor.rate("10.0.0.7:8080")).isEqualTo(250.0);
    assertThat(findings.active()).hasSize(1);
  }

  @Test
  void aRateThatNeedsMorePortsThanTheRangeIsCriticalWithTimeToExhaustion() {
    // The Elastic Beanstalk port exhaustion's order of magnitude: 500/s keeps 30,000 in TIME_WAIT,
    // more than the range.
    List<Finding> found = runIntervals(4, 500);

    assertThat(found)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.severity()).isEqualTo(Severity.CRITICAL);
              assertThat(f.evidence()).containsEntry("seconds_to_exhaustion", 56L);
              assertThat(f.message()).contains("exhausted after about 56 s");
            });
  }

  @Test
  void justBelowTheShareIsNotReported() {
    // 235/s x 60 = 14,100 < 14,116 (half of 28,232).
    assertThat(runIntervals(6, 235)).isEmpty();
  }

  @Test
  void aBurstShorterThanTheSustainedIntervalsIsNotReported() {
    monitor.evaluate();
    interval(1000);
    interval(1000);
    List<Finding> found = interval(0);

    assertThat(found).isEmpty();
    assertThat(findings.active()).isEmpty();
  }

  @Test
  void theFindingClearsWhenTheRateFalls() {
    assertThat(runIntervals(4, 300)).hasSize(1);

    assertThat(interval(1)).isEmpty();
    assertThat(findings.active()).isEmpty();
  }

  @Test
  void aLowRateIsNeverChurnEvenWithATinyPortRange() {
    PortBudget tiny = new PortBudget(60000, 60009, 0, 0, OptionalLong.of(0));
    ChurnMonitor strict =
        new ChurnMonitor(
            churn,
            () -> Optional.of(tiny),
            findings,
            new ChurnMonitor.Settings(0.5, 5.0, 1),
            nanos::get);
    strict.evaluate();
    for (int i = 0; i < 40; i++) {
      churn.connected(BACKEND);
    }
    nanos.addAndGet(Duration.ofSeconds(10).toNanos());

    // 4/s x 60 = 240 > 10 ports, but 4/s is below the 5/s floor.
    assertThat(strict.evaluate()).isEmpty();
  }

  @Test
  void withoutAPortBudgetNothingIsReportedButRatesAreKept() {
    ChurnMonitor blind =
        new ChurnMonitor(
            churn, Optional::empty, findings, new ChurnMonitor.Settings(0.5, 5.0, 1), nanos::get);
    blind.evaluate();
    for (int i = 0; i < 10_000; i++) {
      churn.connected(BACKEND);
    }
    nanos.addAndGet(Duration.ofSeconds(10).toNanos());

    assertThat(blind.evaluate()).isEmpty();
    assertThat(blind.rate("10.0.0.7:8080")).isEqualTo(1000.0);
  }

  /** Starts the monitor, then runs {@code count} 10-second intervals at {@code perSecond}. */
  private List<Finding> runIntervals(int count, int perSecond) {
    monitor.evaluate();
    List<Finding> last = List.of();
    for (int i = 0; i < count; i++) {
      last = interval(perSecond);
    }
    return last;
  }

  private List<Finding> interval(int perSecond) {
    for (int i = 0; i < perSecond * 10; i++) {
      churn.connected(BACKEND);
    }
    nanos.addAndGet(Duration.ofSeconds(10).toNanos());
    return monitor.evaluate();
  }
}
