package io.faultline.jooq.postgres;

import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import java.util.List;

/** The findings of {@link PostgresHealthMetrics}. */
public final class HealthFindingTypes implements FindingCatalog {

  /** The MultiXact member SLRU cache hit ratio fell. */
  public static final FindingType MULTIXACT_SLRU_THRASH =
      new FindingType(
          "PG_MULTIXACT_SLRU_THRASH",
          Severity.CRITICAL,
          "PostgreSQL's MultiXact member SLRU cache is missing most lookups",
          "The Channel.io PostgreSQL outage: the MultiXact member cache hit ratio dropped about"
              + " five minutes before a 15-minute outage with LWLock:MultiXactMemberBuffer waits"
              + " (below 10 % within a minute of a long transaction in the post's reproduction)."
              + " MultiXacts come from several transactions (or a transaction and its savepoints)"
              + " locking the same rows; a long transaction keeps them from being truncated.",
          "Find the flows that lock a row and then update it in a savepoint"
              + " (JOOQ_SAVEPOINT_AFTER_ROW_LOCK) and remove the nesting; end long transactions"
              + " (PG_LONG_TRANSACTION); on PostgreSQL 17+ raise multixact_member_buffers.",
          Incident.CHANNEL_IO_POSTGRESQL);

  /** A transaction has been open for long. */
  public static final FindingType LONG_TRANSACTION =
      new FindingType(
          "PG_LONG_TRANSACTION",
          Severity.WARNING,
          "A transaction has been open longer than jooq.health.long-transaction",
          "An old open transaction holds back vacuum's horizon: dead rows and MultiXacts cannot be"
              + " cleaned up behind it. In the Channel.io PostgreSQL outage one long transaction"
              + " let MultiXact members pile up until the SLRU cache thrashed.",
          "Look up the pid in pg_stat_activity, end the transaction (pg_terminate_backend if it"
              + " is stuck), and give such work a deadline (jooq.transaction-timeout,"
              + " idle_in_transaction_session_timeout).",
          Incident.CHANNEL_IO_POSTGRESQL);

  /** The health poller cannot reach the database. */
  public static final FindingType UNREACHABLE =
      new FindingType(
          "PG_HEALTH_UNREACHABLE",
          Severity.WARNING,
          "The PostgreSQL health poller cannot query the database",
          "While it cannot connect, the SLRU hit ratios, the oldest transaction and mxid_age are"
              + " unknown: the warning signs of the Channel.io PostgreSQL outage would go unseen.",
          "Check the message: the database may be down, or the health poller's user may lack"
              + " pg_monitor (GRANT pg_monitor TO the user).",
          Incident.CHANNEL_IO_POSTGRESQL);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public HealthFindingTypes() {}

  @Override
  public List<FindingType> findingTypes() {
    return List.of(MULTIXACT_SLRU_THRASH, LONG_TRANSACTION, UNREACHABLE);
  }
}
