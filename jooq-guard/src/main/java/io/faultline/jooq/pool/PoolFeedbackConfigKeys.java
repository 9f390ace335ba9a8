package io.faultline.jooq.pool;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigKeyCatalog;
import java.time.Duration;
import java.util.List;

/** The configuration keys of the connection-pool feedback monitor ({@link PoolFeedbackMonitor}). */
public final class PoolFeedbackConfigKeys implements ConfigKeyCatalog {

  /** The pool feedback monitor's feature. */
  public static final String FEATURE = "jooq.pool-feedback";

  /** The monitor's on/off switch. */
  public static final ConfigKey<Boolean> ENABLED =
      ConfigKey.bool(
          FEATURE,
          true,
          FEATURE,
          "Watch HikariCP pools beside PostgreSQL's lock waits and raise"
              + " POOL_GROWTH_UNDER_CONTENTION when the pool grows while contention rises.");

  /** Time between two readings. */
  public static final ConfigKey<Duration> INTERVAL =
      ConfigKey.duration(
          "jooq.pool-feedback.interval",
          Duration.ofSeconds(5),
          FEATURE,
          "Time between two readings of the pool and of pg_stat_activity.");

  /** The window growth and contention are compared over. */
  public static final ConfigKey<Duration> WINDOW =
      ConfigKey.duration(
          "jooq.pool-feedback.window",
          Duration.ofMinutes(1),
          FEATURE,
          "The pool's growth and the rise in contention are measured between the oldest reading"
              + " of this window and the newest.");

  /** Connections the pool must add within the window. */
  public static final ConfigKey<Integer> GROWTH =
      ConfigKey.integer(
          "jooq.pool-feedback.growth",
          3,
          FEATURE,
          "Connections the pool must open beyond minimumIdle within the window to count as"
              + " growing.");

  /** Share of the maximum the pool must reach. */
  public static final ConfigKey<Double> MAX_FRACTION =
      ConfigKey.decimal(
          "jooq.pool-feedback.max-fraction",
          0.75,
          FEATURE,
          "Share of maximumPoolSize the pool must have reached (0..1) for its growth to count as"
              + " growing toward the maximum.");

  /** Lock waiters that count as contention. */
  public static final ConfigKey<Integer> LOCK_WAITERS =
      ConfigKey.integer(
          "jooq.pool-feedback.lock-waiters",
          2,
          FEATURE,
          "Sessions waiting on a lock (wait_event_type Lock, or a MultiXact/subtransaction SLRU"
              + " LWLock) from which a rise counts as contention.");

  /** Active statement age that counts as slow. */
  public static final ConfigKey<Duration> SLOW_STATEMENT =
      ConfigKey.duration(
          "jooq.pool-feedback.slow-statement",
          Duration.ofSeconds(1),
          FEATURE,
          "Age of the longest-running active statement from which a rise counts as rising"
              + " statement latency.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public PoolFeedbackConfigKeys() {}

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(ENABLED, INTERVAL, WINDOW, GROWTH, MAX_FRACTION, LOCK_WAITERS, SLOW_STATEMENT);
  }
}
