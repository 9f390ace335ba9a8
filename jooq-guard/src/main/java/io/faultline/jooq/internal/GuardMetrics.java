package io.faultline.jooq.internal;

import io.faultline.core.metrics.MeterDoc;
import io.faultline.core.metrics.OwnedMeters;
import io.faultline.jooq.JooqMeters;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.atomic.LongAdder;

/**
 * The guard's counts. They are kept here whether or not a registry is bound (so {@code stats()}
 * always answers); {@link #bindTo} exports them as function counters and adds the two
 * distributions. {@link #close} removes what was registered.
 */
public final class GuardMetrics {

  /** Outcomes of top-level transactions, in tag-value order. */
  public final LongAdder committed = new LongAdder();

  /** Top-level transactions rolled back. */
  public final LongAdder rolledBack = new LongAdder();

  /** Top-level transactions whose begin or commit failed. */
  public final LongAdder failed = new LongAdder();

  /** Savepoints created. */
  public final LongAdder savepointsCreated = new LongAdder();

  /** Savepoints released. */
  public final LongAdder savepointsReleased = new LongAdder();

  /** Savepoints rolled back. */
  public final LongAdder savepointsRolledBack = new LongAdder();

  /** Nested transactions let through. */
  public final LongAdder nestedAllowed = new LongAdder();

  /** Nested transactions flattened. */
  public final LongAdder nestedFlattened = new LongAdder();

  /** Nested transactions refused. */
  public final LongAdder nestedRefused = new LongAdder();

  /** Statement timeouts. */
  public final LongAdder statementTimeouts = new LongAdder();

  /** Transaction deadlines passed. */
  public final LongAdder transactionTimeouts = new LongAdder();

  /** Lock timeouts. */
  public final LongAdder lockTimeouts = new LongAdder();

  private final OwnedMeters registered = new OwnedMeters("a jOOQ guard");
  private volatile DistributionSummary depth;
  private volatile DistributionSummary perTransaction;

  /** Registers every meter on {@code registry}. */
  public synchronized void bindTo(MeterRegistry registry) {
    bindTo(registry, Tags.empty());
  }

  /**
   * Registers every meter on {@code registry}, each also tagged with {@code common} (checked by the
   * builder: none of its keys is one the meters declare).
   */
  public synchronized void bindTo(MeterRegistry registry, Tags common) {
    counter(registry, common, JooqMeters.TRANSACTIONS, committed, "committed");
    counter(registry, common, JooqMeters.TRANSACTIONS, rolledBack, "rolled_back");
    counter(registry, common, JooqMeters.TRANSACTIONS, failed, "failed");
    counter(registry, common, JooqMeters.SAVEPOINTS, savepointsCreated, "created");
    counter(registry, common, JooqMeters.SAVEPOINTS, savepointsReleased, "released");
    counter(registry, common, JooqMeters.SAVEPOINTS, savepointsRolledBack, "rolled_back");
    counter(registry, common, JooqMeters.NESTED, nestedAllowed, "allowed");
    counter(registry, common, JooqMeters.NESTED, nestedFlattened, "flattened");
    counter(registry, common, JooqMeters.NESTED, nestedRefused, "refused");
    counter(registry, common, JooqMeters.TIMEOUTS, statementTimeouts, "statement");
    counter(registry, common, JooqMeters.TIMEOUTS, transactionTimeouts, "transaction");
    counter(registry, common, JooqMeters.TIMEOUTS, lockTimeouts, "lock");
    DistributionSummary d =
        registered.register(
            registry,
            JooqMeters.NESTING_DEPTH.name(),
            r -> JooqMeters.NESTING_DEPTH.summary().tags(common).register(r));
    DistributionSummary p =
        registered.register(
            registry,
            JooqMeters.SAVEPOINTS_PER_TRANSACTION.name(),
            r -> JooqMeters.SAVEPOINTS_PER_TRANSACTION.summary().tags(common).register(r));
    depth = d;
    perTransaction = p;
  }

  private void counter(
      MeterRegistry registry, Tags common, MeterDoc doc, LongAdder adder, String tag) {
    registered.register(
        registry,
        doc.name(),
        r ->
            doc.functionCounter(adder, LongAdder::sum)
                .tags(doc.tags(tag))
                .tags(common)
                .register(r));
  }

  /** Records the depth of a level just begun. */
  public void recordDepth(int levelDepth) {
    DistributionSummary d = depth;
    if (d != null) {
      d.record(levelDepth);
    }
  }

  /** Records the savepoints of a top-level transaction that ended. */
  public void recordSavepointsPerTransaction(int savepoints) {
    DistributionSummary p = perTransaction;
    if (p != null) {
      p.record(savepoints);
    }
  }

  /** Removes every meter registered (not those another guard registered first). */
  public synchronized void close() {
    registered.removeAll();
    depth = null;
    perTransaction = null;
  }
}
