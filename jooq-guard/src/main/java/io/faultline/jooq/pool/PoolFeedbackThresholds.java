package io.faultline.jooq.pool;

import io.faultline.core.Loggers;
import io.faultline.core.config.FaultlineConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * When {@link PoolFeedback} calls a pool's growth a feedback loop; defaults are those of {@link
 * PoolFeedbackConfigKeys}.
 *
 * @param window growth and the rise in contention are measured across this window
 * @param growth connections the pool must open beyond {@code minimumIdle} within the window
 * @param maxFraction share of {@code maximumPoolSize} the pool must have reached
 * @param lockWaiters lock waiters from which a rise counts as contention
 * @param slowStatement active-statement age from which a rise counts as rising latency
 */
public record PoolFeedbackThresholds(
    Duration window, int growth, double maxFraction, int lockWaiters, Duration slowStatement) {

  /** Checks the values. */
  public PoolFeedbackThresholds {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(slowStatement, "slowStatement");
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException(
          "jooq.pool-feedback.window must be positive, was " + window);
    }
    if (growth < 1) {
      throw new IllegalArgumentException("jooq.pool-feedback.growth must be >= 1, was " + growth);
    }
    if (!(maxFraction >= 0 && maxFraction <= 1)) {
      throw new IllegalArgumentException(
          "jooq.pool-feedback.max-fraction must be within 0..1, was " + maxFraction);
    }
    if (lockWaiters < 1) {
      throw new IllegalArgumentException(
          "jooq.pool-feedback.lock-waiters must be >= 1, was " + lockWaiters);
    }
  }

  /** The defaults of {@link PoolFeedbackConfigKeys}. */
  public static PoolFeedbackThresholds defaults() {
    return new PoolFeedbackThresholds(
        PoolFeedbackConfigKeys.WINDOW.defaultValue(),
        PoolFeedbackConfigKeys.GROWTH.defaultValue(),
        PoolFeedbackConfigKeys.MAX_FRACTION.defaultValue(),
        PoolFeedbackConfigKeys.LOCK_WAITERS.defaultValue(),
        PoolFeedbackConfigKeys.SLOW_STATEMENT.defaultValue());
  }

  /**
   * The values of {@code config}; a value out of range falls back to its default with a warning,
   * since configuration must never stop the application.
   */
  public static PoolFeedbackThresholds from(FaultlineConfig config) {
    try {
      return new PoolFeedbackThresholds(
          config.get(PoolFeedbackConfigKeys.WINDOW),
          config.get(PoolFeedbackConfigKeys.GROWTH),
          config.get(PoolFeedbackConfigKeys.MAX_FRACTION),
          config.get(PoolFeedbackConfigKeys.LOCK_WAITERS),
          config.get(PoolFeedbackConfigKeys.SLOW_STATEMENT));
    } catch (IllegalArgumentException e) {
      Loggers.get(PoolFeedbackThresholds.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "faultline: " + e.getMessage() + "; using the defaults of jooq.pool-feedback.*");
      return defaults();
    }
  }

  /** The window in nanoseconds. */
  long windowNanos() {
    return window.toNanos();
  }
}
