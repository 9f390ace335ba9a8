package io.faultline.jooq.internal;

import io.micrometer.core.instrument.DistributionSummary;
import java.util.HashMap;
import java.util.Map;

/**
 * A distribution summary of small whole numbers (a nesting depth, savepoints per transaction) that
 * may be registered after the first values arrive: the agent creates its meter registry only once
 * the application's start-up has settled, and a transaction run during the start would otherwise go
 * unrecorded. From {@link #awaitBind} until {@link #bind} the values are counted by value; binding
 * records them into the summary, and every value after that goes straight to it. Without a bind on
 * its way (a guard without a registry, or after {@link #close}) values are dropped.
 *
 * <p>Only the time between {@link #awaitBind} and the bind takes this object's lock (so a value
 * racing the bind is recorded exactly once); otherwise a value is a volatile read or two.
 */
final class LateSummary {

  /** Distinct values kept before the bind; a depth or a savepoint count beyond it is rare. */
  static final int MAX_PENDING_VALUES = 256;

  private final Map<Integer, long[]> pending = new HashMap<>();
  private volatile DistributionSummary summary;
  // Only a guard whose registry is on its way keeps values: without one they are dropped unlocked.
  private volatile boolean awaitingBind;

  /** Records {@code value}, now or at the bind. */
  void record(int value) {
    record(value, 1);
  }

  /** Records {@code value} {@code times} times, now or at the bind. */
  void record(int value, long times) {
    DistributionSummary s = summary;
    if (s == null) {
      if (!awaitingBind) {
        // A bind may have finished since the first read: it publishes the summary before it
        // clears the flag, so a second read finds it.
        s = summary;
        if (s == null) {
          return;
        }
        recordInto(s, value, times);
        return;
      }
      synchronized (this) {
        s = summary;
        if (s == null) {
          countPending(value, times);
          return;
        }
      }
    }
    recordInto(s, value, times);
  }

  private static void recordInto(DistributionSummary s, int value, long times) {
    // A summary has no record of many: one call per value (a scrape's worth of transactions).
    for (long i = 0; i < times; i++) {
      s.record(value);
    }
  }

  private void countPending(int value, long times) {
    if (!awaitingBind) {
      return;
    }
    long[] count = pending.get(value);
    if (count == null) {
      if (pending.size() >= MAX_PENDING_VALUES) {
        return;
      }
      count = new long[1];
      pending.put(value, count);
    }
    count[0] += times;
  }

  /** Keeps the values from now on, for a {@link #bind} to come. */
  synchronized void awaitBind() {
    awaitingBind = true;
  }

  /** From now on values go to {@code target}; those counted so far are recorded into it. */
  synchronized void bind(DistributionSummary target) {
    for (Map.Entry<Integer, long[]> e : pending.entrySet()) {
      recordInto(target, e.getKey(), e.getValue()[0]);
    }
    pending.clear();
    summary = target;
    awaitingBind = false;
  }

  /** Drops the summary and every value counted; later values are dropped until a new bind. */
  synchronized void close() {
    awaitingBind = false;
    summary = null;
    pending.clear();
  }

  /** Values counted and not yet recorded. */
  synchronized long pending() {
    long total = 0;
    for (long[] count : pending.values()) {
      total += count[0];
    }
    return total;
  }
}
