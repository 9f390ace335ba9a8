package io.faultline.jooq.pool;

import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import java.util.List;

/** The finding of {@link PoolFeedbackMonitor}. */
public final class PoolFeedbackFindingTypes implements FindingCatalog {

  /** The pool grows toward its maximum while the database's contention rises. */
  public static final FindingType POOL_GROWTH_UNDER_CONTENTION =
      new FindingType(
          "POOL_GROWTH_UNDER_CONTENTION",
          Severity.WARNING,
          "The connection pool grows toward its maximum while lock waits or statement latency"
              + " rise",
          "The Channel.io PostgreSQL outage: when queries slowed on lock and MultiXact SLRU"
              + " contention, the pool opened more connections; each new connection ran more of"
              + " the same contended work, so the contention the pool was reacting to deepened. A"
              + " pool that grows under contention feeds the contention instead of relieving it.",
          "Give the pool a fixed size (minimumIdle = maximumPoolSize, sized for the database"
              + " rather than for the load), set statement and lock timeouts"
              + " (jooq.statement-timeout, jooq.lock-timeout) so a stalled database fails fast,"
              + " and fix the contention itself: nested savepoints after row locks"
              + " (JOOQ_SAVEPOINT_AFTER_ROW_LOCK), long transactions (PG_LONG_TRANSACTION), hot"
              + " rows updated by many sessions.",
          Incident.CHANNEL_IO_POSTGRESQL);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public PoolFeedbackFindingTypes() {}

  @Override
  public List<FindingType> findingTypes() {
    return List.of(POOL_GROWTH_UNDER_CONTENTION);
  }
}
