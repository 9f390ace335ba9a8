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

  /** Depth of each transaction level begun. */
  public static final MeterDoc NESTING_DEPTH =
      new MeterDoc(
          "faultline.jooq.nesting.depth",
          MeterDoc.Type.DISTRIBUTION_SUMMARY,
          "levels",
          List.of(),
          "Nesting depth of every transaction level begun: 1 for a top-level transaction, 2 for"
              + " one nested in it, and so on.",
          JooqConfigKeys.GUARD);

  /** Savepoints per top-level transaction. */
  public static final MeterDoc SAVEPOINTS_PER_TRANSACTION =
      new MeterDoc(
          "faultline.jooq.savepoints.per.transaction",
          MeterDoc.Type.DISTRIBUTION_SUMMARY,
          "savepoints",
          List.of(),
          "Savepoints created in one top-level transaction, recorded when it ends (PostgreSQL"
              + " caches 64 subtransactions per backend).",
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
