package io.faultline.jooq.internal;

import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.metrics.MeterDoc;
import io.faultline.core.metrics.OwnedMeters;
import io.faultline.jooq.GuardStats;
import io.faultline.jooq.JooqMeters;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.atomic.LongAdder;

/**
 * The guard's counts. They are kept here whether or not a registry is bound (so {@code stats()}
 * always answers); {@link #bindTo} exports them as function counters and adds the two
 * distributions, which also record what came before the bind. {@link #close} removes what was
 * registered.
 */
public final class GuardMetrics {

  private final LongAdder committed = new LongAdder();
  private final LongAdder rolledBack = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder savepointsCreated = new LongAdder();
  private final LongAdder savepointsReleased = new LongAdder();
  private final LongAdder savepointsRolledBack = new LongAdder();
  private final LongAdder nestedAllowed = new LongAdder();
  private final LongAdder nestedFlattened = new LongAdder();
  private final LongAdder nestedRefused = new LongAdder();
  private final LongAdder statementTimeouts = new LongAdder();
  private final LongAdder transactionTimeouts = new LongAdder();
  private final LongAdder lockTimeouts = new LongAdder();

  private final OwnedMeters registered = new OwnedMeters("a jOOQ guard");
  private final LateSummary depth = new LateSummary();
  private final LateSummary perTransaction = new LateSummary();
  private boolean closed;

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
    closed = false;
    depth.bind(d);
    perTransaction.bind(p);
  }

  /**
   * Registers every meter once {@code registry} exists (at once if it does), unless {@link #close}
   * came first.
   */
  public void bindWhenReady(LateRegistry registry, Tags common) {
    depth.awaitBind();
    perTransaction.awaitBind();
    registry.whenReady(
        r -> {
          synchronized (this) {
            if (!closed) {
              bindTo(r, common);
            }
          }
        });
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

  /** A top-level transaction committed. */
  public void transactionCommitted() {
    committed.increment();
  }

  /** A top-level transaction rolled back. */
  public void transactionRolledBack() {
    rolledBack.increment();
  }

  /** A top-level transaction's begin or commit failed. */
  public void transactionFailed() {
    failed.increment();
  }

  /** A savepoint was created. */
  public void savepointCreated() {
    savepointsCreated.increment();
  }

  /** A savepoint was released. */
  public void savepointReleased() {
    savepointsReleased.increment();
  }

  /** A savepoint was rolled back to. */
  public void savepointRolledBack() {
    savepointsRolledBack.increment();
  }

  /** A nested transaction was let through. */
  public void nestedAllowed() {
    nestedAllowed.increment();
  }

  /** A nested transaction was flattened. */
  public void nestedFlattened() {
    nestedFlattened.increment();
  }

  /** A nested transaction was refused. */
  public void nestedRefused() {
    nestedRefused.increment();
  }

  /** A statement timed out. */
  public void statementTimedOut() {
    statementTimeouts.increment();
  }

  /** A transaction deadline passed. */
  public void transactionTimedOut() {
    transactionTimeouts.increment();
  }

  /** A lock wait timed out. */
  public void lockTimedOut() {
    lockTimeouts.increment();
  }

  /** The counts so far. */
  public GuardStats stats() {
    return new GuardStats(
        committed.sum(),
        rolledBack.sum(),
        failed.sum(),
        savepointsCreated.sum(),
        savepointsReleased.sum(),
        savepointsRolledBack.sum(),
        nestedAllowed.sum(),
        nestedFlattened.sum(),
        nestedRefused.sum(),
        statementTimeouts.sum(),
        transactionTimeouts.sum(),
        lockTimeouts.sum());
  }

  /** Records the depth of a level just begun. */
  public void recordDepth(int levelDepth) {
    depth.record(levelDepth);
  }

  /** Records the savepoints of a top-level transaction that ended. */
  public void recordSavepointsPerTransaction(int savepoints) {
    perTransaction.record(savepoints);
  }

  /** Removes every meter registered (not those another guard registered first). */
  public synchronized void close() {
    closed = true;
    registered.removeAll();
    depth.close();
    perTransaction.close();
  }
}
