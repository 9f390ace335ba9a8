package io.faultline.jooq.pool;

import io.faultline.core.finding.Finding;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides, from periodic readings of one pool and of the database's contention, whether the pool is
 * feeding the contention it reacts to (the Channel.io PostgreSQL outage).
 *
 * <p>It raises when, between the oldest reading of the window and the newest, the pool opened at
 * least {@code growth} connections beyond {@code minimumIdle} and now holds at least {@code
 * maxFraction} of its maximum, while the database is contended and the contention is not falling:
 * lock waiters at least {@code lockWaiters} and no fewer than at the start of the window, or the
 * longest-running active statement at least {@code slowStatement} old and no younger than at the
 * start. A pool filling up to its {@code minimumIdle} is warming up, not growing, so a fixed-size
 * pool never counts as growing.
 *
 * <p>Once raised it stays raised while the pool stays near its maximum above {@code minimumIdle}
 * and the database stays contended; it clears when either stops. Not thread-safe: one monitor
 * thread feeds it.
 */
final class PoolFeedback {

  private record Sample(long nanos, PoolReading pool, ContentionReading contention) {}

  private final PoolFeedbackThresholds thresholds;
  private final ArrayDeque<Sample> window = new ArrayDeque<>();
  private Sample raisedFrom;

  /** Judges with {@code thresholds}. */
  public PoolFeedback(PoolFeedbackThresholds thresholds) {
    this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
  }

  /**
   * Takes one reading and returns the finding that holds now, if any.
   *
   * @param nanos when it was read, from {@link System#nanoTime()} or a test's clock
   */
  public Optional<Finding> next(long nanos, PoolReading pool, ContentionReading contention) {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(contention, "contention");
    Sample now = new Sample(nanos, pool, contention);
    Sample first = window.peekFirst();
    if (first != null && first.pool.maximum() != pool.maximum()) {
      // The pool was resized: earlier readings say nothing about this pool's growth.
      window.clear();
      raisedFrom = null;
    }
    window.addLast(now);
    while (window.size() > 1 && nanos - window.peekFirst().nanos > thresholds.windowNanos()) {
      window.removeFirst();
    }
    Sample before = window.peekFirst();
    if (raisedFrom == null) {
      if (growing(before.pool, pool) && contended(before.contention, contention)) {
        raisedFrom = before;
      }
    } else if (!(nearMaximum(pool) && pool.aboveMinimum() > 0 && contended(contention))) {
      raisedFrom = null;
    }
    return raisedFrom == null ? Optional.empty() : Optional.of(finding(raisedFrom, now));
  }

  /** Whether the finding is raised after the last reading. */
  public boolean raised() {
    return raisedFrom != null;
  }

  private boolean growing(PoolReading before, PoolReading now) {
    int grown = now.total() - Math.max(before.total(), now.minimumIdle());
    return grown >= thresholds.growth() && nearMaximum(now);
  }

  private boolean nearMaximum(PoolReading pool) {
    return pool.maximum() > 0 && pool.total() >= thresholds.maxFraction() * pool.maximum();
  }

  private boolean contended(ContentionReading before, ContentionReading now) {
    boolean locks =
        now.lockWaiters() >= thresholds.lockWaiters() && now.lockWaiters() >= before.lockWaiters();
    boolean slow =
        now.slowestStatementSeconds() >= slowSeconds()
            && now.slowestStatementSeconds() >= before.slowestStatementSeconds();
    return locks || slow;
  }

  private boolean contended(ContentionReading now) {
    return now.lockWaiters() >= thresholds.lockWaiters()
        || now.slowestStatementSeconds() >= slowSeconds();
  }

  private double slowSeconds() {
    return thresholds.slowStatement().toNanos() / 1e9;
  }

  private static Finding finding(Sample from, Sample now) {
    PoolReading p0 = from.pool;
    PoolReading p1 = now.pool;
    ContentionReading c0 = from.contention;
    ContentionReading c1 = now.contention;
    return Finding.of(PoolFeedbackFindingTypes.POOL_GROWTH_UNDER_CONTENTION, p1.poolName())
        .message(
            String.format(
                Locale.ROOT,
                "pool %s grew from %d to %d of %d connections (minimumIdle %d, %d threads"
                    + " awaiting) while lock waiters went from %d to %d and the slowest active"
                    + " statement from %.1f s to %.1f s",
                p1.poolName(),
                p0.total(),
                p1.total(),
                p1.maximum(),
                p1.minimumIdle(),
                p1.awaiting(),
                c0.lockWaiters(),
                c1.lockWaiters(),
                c0.slowestStatementSeconds(),
                c1.slowestStatementSeconds()))
        .evidence("pool", p1.poolName())
        .evidence("total", p0.total() + "->" + p1.total())
        .evidence("maximumPoolSize", p1.maximum())
        .evidence("minimumIdle", p1.minimumIdle())
        .evidence("threadsAwaiting", p1.awaiting())
        .evidence("lockWaiters", c0.lockWaiters() + "->" + c1.lockWaiters())
        .evidence(
            "slowestStatementSeconds",
            String.format(
                Locale.ROOT,
                "%.1f->%.1f",
                c0.slowestStatementSeconds(),
                c1.slowestStatementSeconds()))
        .evidence("overSeconds", Math.round((now.nanos - from.nanos) / 1e9))
        .build();
  }
}
