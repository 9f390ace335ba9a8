package io.faultline.jooq.internal;

import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.metrics.MeterDoc;
import io.faultline.core.metrics.OwnedMeters;
import io.faultline.jooq.GuardStats;
import io.faultline.jooq.JooqMeters;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The guard's counts. They are kept here whether or not a registry is bound (so {@code stats()}
 * always answers); {@link #bindTo} exports them as function counters and adds the two
 * distributions, which also record what came before the bind. {@link #close} removes what was
 * registered.
 *
 * <p>Every count is kept per thread ({@link ThreadCounts}), the two distributions' usual values
 * too: a transaction's depth and savepoints are counted by value and recorded into the summaries
 * when the counts are read (any read of the guard's counters, so every scrape or publish, and
 * {@link #stats()}), and by the first transaction to end {@value #RECORD_EVERY_MILLIS} ms after the
 * last time, for a registry that reads the summaries alone. Recording at each transaction's end
 * wrote cache lines every worker of a busy pool shares, twice per transaction that nested. An
 * unusual value (a depth of {@value #DEPTH_VALUES} or more, {@value #SAVEPOINT_VALUES} savepoints
 * or more) is recorded at once.
 */
public final class GuardMetrics {

  // The counters' numbers in counts.
  private static final int COMMITTED = 0;
  private static final int ROLLED_BACK = 1;
  private static final int FAILED = 2;
  private static final int SAVEPOINTS_CREATED = 3;
  private static final int SAVEPOINTS_RELEASED = 4;
  private static final int SAVEPOINTS_ROLLED_BACK = 5;
  private static final int NESTED_ALLOWED = 6;
  private static final int NESTED_FLATTENED = 7;
  private static final int NESTED_REFUSED = 8;
  private static final int STATEMENT_TIMEOUTS = 9;
  private static final int TRANSACTION_TIMEOUTS = 10;
  private static final int LOCK_TIMEOUTS = 11;

  /** Depths below this are counted by value (at DEPTH_BASE + depth) until a read records them. */
  static final int DEPTH_VALUES = 16;

  /** Savepoint counts below this are counted by value (at SAVEPOINT_BASE + count). */
  static final int SAVEPOINT_VALUES = 32;

  private static final int DEPTH_BASE = 12;
  private static final int SAVEPOINT_BASE = DEPTH_BASE + DEPTH_VALUES;

  /** A transaction's end records what was counted when the last recording is this old. */
  static final long RECORD_EVERY_MILLIS = 100;

  private static final long RECORD_EVERY_NANOS = RECORD_EVERY_MILLIS * 1_000_000L;

  // Per thread: every transaction counts one or more, on every worker of a busy pool.
  private final ThreadCounts counts = new ThreadCounts(SAVEPOINT_BASE + SAVEPOINT_VALUES);

  /** Per value, how many of the counted ones are recorded into the summaries; under recording. */
  private final long[] recorded = new long[DEPTH_VALUES + SAVEPOINT_VALUES];

  /** Held while recording: a reader waits for it, a transaction's end never does. */
  private final ReentrantLock recording = new ReentrantLock();

  private final LongSupplier nanoClock;
  private volatile long recordedAt;

  private final OwnedMeters registered = new OwnedMeters("a jOOQ guard");
  private final LateSummary depth = new LateSummary();
  private final LateSummary perTransaction = new LateSummary();
  private boolean closed;

  /** Counts on the system's clock. */
  public GuardMetrics() {
    this(System::nanoTime);
  }

  /** Counts on {@code nanoClock} (the recording interval's clock; for tests). */
  GuardMetrics(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.recordedAt = nanoClock.getAsLong();
  }

  /** Registers every meter on {@code registry}. */
  public synchronized void bindTo(MeterRegistry registry) {
    bindTo(registry, Tags.empty());
  }

  /**
   * Registers every meter on {@code registry}, each also tagged with {@code common} (checked by the
   * builder: none of its keys is one the meters declare).
   */
  public synchronized void bindTo(MeterRegistry registry, Tags common) {
    counter(registry, common, JooqMeters.TRANSACTIONS, COMMITTED, "committed");
    counter(registry, common, JooqMeters.TRANSACTIONS, ROLLED_BACK, "rolled_back");
    counter(registry, common, JooqMeters.TRANSACTIONS, FAILED, "failed");
    counter(registry, common, JooqMeters.SAVEPOINTS, SAVEPOINTS_CREATED, "created");
    counter(registry, common, JooqMeters.SAVEPOINTS, SAVEPOINTS_RELEASED, "released");
    counter(registry, common, JooqMeters.SAVEPOINTS, SAVEPOINTS_ROLLED_BACK, "rolled_back");
    counter(registry, common, JooqMeters.NESTED, NESTED_ALLOWED, "allowed");
    counter(registry, common, JooqMeters.NESTED, NESTED_FLATTENED, "flattened");
    counter(registry, common, JooqMeters.NESTED, NESTED_REFUSED, "refused");
    counter(registry, common, JooqMeters.TIMEOUTS, STATEMENT_TIMEOUTS, "statement");
    counter(registry, common, JooqMeters.TIMEOUTS, TRANSACTION_TIMEOUTS, "transaction");
    counter(registry, common, JooqMeters.TIMEOUTS, LOCK_TIMEOUTS, "lock");
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

  private void counter(MeterRegistry registry, Tags common, MeterDoc doc, int counter, String tag) {
    registered.register(
        registry,
        doc.name(),
        r ->
            doc.functionCounter(this, m -> m.read(counter))
                .tags(doc.tags(tag))
                .tags(common)
                .register(r));
  }

  /** A counter's value, for its meter: the summaries are brought up to date first. */
  private double read(int counter) {
    recordCounted();
    return counts.sum(counter);
  }

  /** A top-level transaction committed. */
  public void transactionCommitted(Ledger ledger) {
    counts.increment(slot(ledger), COMMITTED);
  }

  /** A top-level transaction rolled back. */
  public void transactionRolledBack(Ledger ledger) {
    counts.increment(slot(ledger), ROLLED_BACK);
  }

  /** A top-level transaction's begin or commit failed. */
  public void transactionFailed(Ledger ledger) {
    counts.increment(slot(ledger), FAILED);
  }

  /** A savepoint was created. */
  public void savepointCreated(Ledger ledger) {
    counts.increment(slot(ledger), SAVEPOINTS_CREATED);
  }

  /** A savepoint was released. */
  public void savepointReleased(Ledger ledger) {
    counts.increment(slot(ledger), SAVEPOINTS_RELEASED);
  }

  /** A savepoint was rolled back to. */
  public void savepointRolledBack(Ledger ledger) {
    counts.increment(slot(ledger), SAVEPOINTS_ROLLED_BACK);
  }

  /** A nested transaction was let through. */
  public void nestedAllowed(Ledger ledger) {
    counts.increment(slot(ledger), NESTED_ALLOWED);
  }

  /** A nested transaction was flattened. */
  public void nestedFlattened(Ledger ledger) {
    counts.increment(slot(ledger), NESTED_FLATTENED);
  }

  /** A nested transaction was refused. */
  public void nestedRefused(Ledger ledger) {
    counts.increment(slot(ledger), NESTED_REFUSED);
  }

  /**
   * The calling thread's slot in the counts, kept with {@code ledger}: a transaction counts several
   * times (a nested one, four or more), and each lookup of the slot missed the caches.
   */
  private ThreadCounts.Slot slot(Ledger ledger) {
    ThreadCounts.Slot slot = ledger.countsSlot();
    if (!counts.isCallers(slot)) {
      slot = counts.slot();
      ledger.countsSlot(slot);
    }
    return slot;
  }

  /** A statement timed out. */
  public void statementTimedOut() {
    counts.increment(STATEMENT_TIMEOUTS);
  }

  /** A transaction deadline passed. */
  public void transactionTimedOut() {
    counts.increment(TRANSACTION_TIMEOUTS);
  }

  /** A lock wait timed out. */
  public void lockTimedOut() {
    counts.increment(LOCK_TIMEOUTS);
  }

  /** The counts so far; the summaries are brought up to date with them. */
  public GuardStats stats() {
    recordCounted();
    return new GuardStats(
        counts.sum(COMMITTED),
        counts.sum(ROLLED_BACK),
        counts.sum(FAILED),
        counts.sum(SAVEPOINTS_CREATED),
        counts.sum(SAVEPOINTS_RELEASED),
        counts.sum(SAVEPOINTS_ROLLED_BACK),
        counts.sum(NESTED_ALLOWED),
        counts.sum(NESTED_FLATTENED),
        counts.sum(NESTED_REFUSED),
        counts.sum(STATEMENT_TIMEOUTS),
        counts.sum(TRANSACTION_TIMEOUTS),
        counts.sum(LOCK_TIMEOUTS));
  }

  /**
   * The top-level transaction of {@code ledger} ended after nesting its {@link Ledger#maxDepth()}
   * levels deep (1: it nested none) and creating its {@link Ledger#savepointsCreated()}: a
   * transaction that nested a level is recorded in both summaries. One that did not is only counted
   * (by its outcome): it can have made no savepoint, and recording its two constant values was the
   * largest single part of the guard's cost per transaction on a busy pool (every record writes
   * cache lines all the workers share).
   */
  public void transactionEnded(Ledger ledger) {
    int maxDepth = ledger.maxDepth();
    if (maxDepth <= 1) {
      return;
    }
    int savepoints = ledger.savepointsCreated();
    ThreadCounts.Slot slot = slot(ledger);
    if (maxDepth < DEPTH_VALUES) {
      counts.increment(slot, DEPTH_BASE + maxDepth);
    } else {
      depth.record(maxDepth);
    }
    if (savepoints >= 0 && savepoints < SAVEPOINT_VALUES) {
      counts.increment(slot, SAVEPOINT_BASE + savepoints);
    } else {
      perTransaction.record(savepoints);
    }
    // A worker records the others' counts now and then, unless a reader is recording them.
    if (nanoClock.getAsLong() - recordedAt >= RECORD_EVERY_NANOS && recording.tryLock()) {
      try {
        recordCountedLocked();
      } finally {
        recording.unlock();
      }
    }
  }

  /**
   * Records into the summaries the depths and savepoint counts counted since the last call (any
   * thread may call it; the per-thread counts are read, never reset).
   */
  private void recordCounted() {
    recording.lock();
    try {
      recordCountedLocked();
    } finally {
      recording.unlock();
    }
  }

  private void recordCountedLocked() {
    recordedAt = nanoClock.getAsLong();
    long[] now = new long[recorded.length];
    counts.sums(DEPTH_BASE, now);
    for (int i = 0; i < now.length; i++) {
      long more = now[i] - recorded[i];
      if (more > 0) {
        recorded[i] = now[i];
        if (i < DEPTH_VALUES) {
          depth.record(i, more);
        } else {
          perTransaction.record(i - DEPTH_VALUES, more);
        }
      }
    }
  }

  /** Removes every meter registered (not those another guard registered first). */
  public synchronized void close() {
    closed = true;
    registered.removeAll();
    depth.close();
    perTransaction.close();
  }
}
