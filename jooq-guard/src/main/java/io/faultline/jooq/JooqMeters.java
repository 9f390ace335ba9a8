package io.faultline.jooq;

import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterDoc;
import java.util.List;

/** The meters of the guarded transaction provider. */
public final class JooqMeters implements MeterCatalog {

  /** Top-level transactions by outcome. */
  public static final MeterDoc TRANSACTIONS =
      new MeterDoc(
          "faultline.jooq.transactions",
          MeterDoc.Type.COUNTER,
          "transactions",
          List.of("outcome"),
          "Top-level jOOQ transactions that ended, by outcome: committed, rolled_back, failed (the"
              + " commit itself failed, or the begin).",
          JooqConfigKeys.GUARD);

  /** Savepoints by outcome. */
  public static final MeterDoc SAVEPOINTS =
      new MeterDoc(
          "faultline.jooq.savepoints",
          MeterDoc.Type.COUNTER,
          "savepoints",
          List.of("outcome"),
          "Savepoints (nested transactions that are PostgreSQL subtransactions) by outcome:"
              + " created, released, rolled_back.",
          JooqConfigKeys.GUARD);

  /** Nested transactions by what the policy did (the outcome). */
  public static final MeterDoc NESTED =
      new MeterDoc(
          "faultline.jooq.nested",
          MeterDoc.Type.COUNTER,
          "transactions",
          List.of("outcome"),
          "Transactions begun inside another, by outcome (what the nesting policy did): allowed,"
              + " flattened, refused.",
          JooqConfigKeys.GUARD);

  /** The deepest level of each top-level transaction that nested one. */
  public static final MeterDoc NESTING_DEPTH =
      new MeterDoc(
          "faultline.jooq.nesting.depth",
          MeterDoc.Type.DISTRIBUTION_SUMMARY,
          "levels",
          List.of(),
          "Deepest level of each top-level transaction that nested one: 2"
              + " for a transaction with a level nested in it, 3 for one nested in that, and so on"
              + " (a transaction that nested nothing is only counted in faultline.jooq.transactions);"
              + " recorded when the guard's counters are next read, e.g. by a scrape.",
          JooqConfigKeys.GUARD);

  /** Savepoints per top-level transaction that nested a level. */
  public static final MeterDoc SAVEPOINTS_PER_TRANSACTION =
      new MeterDoc(
          "faultline.jooq.savepoints.per.transaction",
          MeterDoc.Type.DISTRIBUTION_SUMMARY,
          "savepoints",
          List.of(),
          "Savepoints created in one top-level transaction that nested a level (PostgreSQL caches"
              + " 64 subtransactions per backend; a transaction that nested nothing made none and is"
              + " only counted in faultline.jooq.transactions); recorded when the guard's counters"
              + " are next read, e.g. by a scrape.",
          JooqConfigKeys.GUARD);

  /** Timeouts by kind. */
  public static final MeterDoc TIMEOUTS =
      new MeterDoc(
          "faultline.jooq.timeouts",
          MeterDoc.Type.COUNTER,
          "timeouts",
          List.of("kind"),
          "Guarded transactions that hit a timeout, by kind: statement (statement_timeout),"
              + " transaction (the deadline), lock (lock_timeout).",
          JooqConfigKeys.GUARD);

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public JooqMeters() {}

  @Override
  public List<MeterDoc> meters() {
    return List.of(
        TRANSACTIONS, SAVEPOINTS, NESTED, NESTING_DEPTH, SAVEPOINTS_PER_TRANSACTION, TIMEOUTS);
  }
}
