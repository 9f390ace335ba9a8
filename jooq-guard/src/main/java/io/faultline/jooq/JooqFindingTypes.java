package io.faultline.jooq;

import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import java.util.List;

/** The finding types jooq-guard raises. */
public final class JooqFindingTypes implements FindingCatalog {

  /** A transaction was begun inside another (a savepoint), per call site. */
  public static final FindingType NESTED_TRANSACTION =
      new FindingType(
          "JOOQ_NESTED_TRANSACTION",
          Severity.WARNING,
          "A jOOQ transaction is begun inside another one: a SAVEPOINT (PostgreSQL subtransaction)",
          "The Channel.io PostgreSQL outage: nested @Transactional methods made jOOQ's"
              + " DefaultTransactionProvider issue SAVEPOINTs, 40 in one flow. Each is a"
              + " subtransaction; after SELECT ... FOR UPDATE a savepoint plus an UPDATE of the"
              + " same row creates a MultiXact, and MultiXact SLRU thrashing took the database"
              + " down for 15 minutes.",
          "Make the inner code join the outer transaction (jooq.nesting=FLATTEN, or pass the"
              + " outer Configuration down instead of starting a transaction), or refuse nesting"
              + " with jooq.nesting=FAIL. Where Spring's transaction manager makes the savepoint"
              + " (@Transactional(propagation = NESTED)), FLATTEN cannot join it: use REQUIRED"
              + " there. Keep a savepoint only where a partial rollback is really needed, and"
              + " never after a row lock.",
          Incident.CHANNEL_IO_POSTGRESQL);

  /** A savepoint after SELECT ... FOR UPDATE/SHARE in the same transaction. */
  public static final FindingType SAVEPOINT_AFTER_ROW_LOCK =
      new FindingType(
          "JOOQ_SAVEPOINT_AFTER_ROW_LOCK",
          Severity.CRITICAL,
          "A savepoint was begun after the transaction locked rows with SELECT ... FOR"
              + " UPDATE/SHARE",
          "The Channel.io PostgreSQL outage's mechanism: a row locked by the transaction and then"
              + " updated inside a subtransaction gets a MultiXact as xmax. Under load the"
              + " MultiXact member SLRU cache thrashes (LWLock:MultiXactMemberBuffer waits) and"
              + " the whole database stalls.",
          "Do not open a nested transaction after SELECT ... FOR UPDATE: run the inner code in"
              + " the outer transaction (jooq.nesting=FLATTEN; for Spring's"
              + " @Transactional(propagation = NESTED), propagation REQUIRED), or take the lock"
              + " inside the inner transaction. The finding names the locking statement (evidence lockingStatement)"
              + " with its literals masked as ?, so no data the statement carried is shown;"
              + " jooq.sql.literals=keep shows them.",
          Incident.CHANNEL_IO_POSTGRESQL);

  /** More than 64 savepoints in one top-level transaction. */
  public static final FindingType SUBTRANSACTION_OVERFLOW =
      new FindingType(
          "JOOQ_SUBTRANSACTION_OVERFLOW",
          Severity.CRITICAL,
          "One transaction created more savepoints than PostgreSQL caches per backend (64)",
          "Past 64 subtransactions a backend's subtransaction cache overflows and every other"
              + " session's snapshot has to read pg_subtrans: GitLab's 2021 outage. The Channel.io"
              + " PostgreSQL outage's flows reached 40.",
          "Remove the nesting in this flow (jooq.nesting=FLATTEN or FAIL; for Spring's"
              + " @Transactional(propagation = NESTED), propagation REQUIRED), or split the work"
              + " into several top-level transactions.",
          Incident.CHANNEL_IO_POSTGRESQL);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public JooqFindingTypes() {}

  @Override
  public List<FindingType> findingTypes() {
    return List.of(NESTED_TRANSACTION, SAVEPOINT_AFTER_ROW_LOCK, SUBTRANSACTION_OVERFLOW);
  }
}
