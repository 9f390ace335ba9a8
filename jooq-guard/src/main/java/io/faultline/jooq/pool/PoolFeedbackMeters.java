package io.faultline.jooq.pool;

import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterDoc;
import java.util.List;

/**
 * The meters of {@link PoolFeedbackMonitor}. The pool's own sizes are not repeated here: HikariCP
 * publishes them itself ({@code hikaricp.connections*}).
 */
public final class PoolFeedbackMeters implements MeterCatalog {

  /** Sessions waiting on locks, as last read. */
  public static final MeterDoc LOCK_WAITERS =
      new MeterDoc(
          "faultline.pg.lock.waiters",
          MeterDoc.Type.GAUGE,
          "sessions",
          List.of("pool"),
          "Client sessions of the pool's database waiting on a lock (wait_event_type Lock, or a"
              + " MultiXact/subtransaction SLRU LWLock) at the last reading; NaN before the first.",
          PoolFeedbackConfigKeys.FEATURE);

  /** Age of the longest-running active statement, as last read. */
  public static final MeterDoc SLOWEST_STATEMENT =
      new MeterDoc(
          "faultline.pg.active.statement.max.age",
          MeterDoc.Type.GAUGE,
          "seconds",
          List.of("pool"),
          "Age of the longest-running active statement of the pool's database at the last"
              + " reading; NaN before the first.",
          PoolFeedbackConfigKeys.FEATURE);

  /** Readings by outcome. */
  public static final MeterDoc READINGS =
      new MeterDoc(
          "faultline.pool.feedback.readings",
          MeterDoc.Type.COUNTER,
          "readings",
          List.of("pool", "outcome"),
          "Readings of the pool and of pg_stat_activity by outcome: ok, failed (the database could"
              + " not be queried), unavailable (the pool is not started or is closed).",
          PoolFeedbackConfigKeys.FEATURE);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public PoolFeedbackMeters() {}

  @Override
  public List<MeterDoc> meters() {
    return List.of(LOCK_WAITERS, SLOWEST_STATEMENT, READINGS);
  }
}
