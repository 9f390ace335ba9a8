package io.faultline.jooq;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntUnaryOperator;
import java.util.function.LongSupplier;

/**
 * Decides which nested begins have their call site found by a stack walk. A walk from a busy worker
 * thread cost 14 µs here against real PostgreSQL (the frames' metadata is cold after the database
 * round trips), about half of the guard's cost per nested transaction when every begin walked.
 * Below the budget every nested begin is walked and the per-site counts are exact; above it, each
 * begin is walked with probability {@code 1/n}, {@code n} chosen every 100 ms from the begins per
 * 100 ms since the last choice so that about the budget is walked, and a walked begin counts {@code
 * n}: each site's count is then an unbiased estimate and the walks' CPU stays bounded. Within a
 * window busier than the one before, once a second's budget of begins has been seen {@code n} also
 * grows with them, so a burst after a quiet spell walks about {@code budget × (1 + ln(begins /
 * budget))} in that window instead of every begin, while a short burst below a second's budget is
 * still walked whole. Once a second's budget has been walked within the current second, {@code n}
 * grows with that second's begins as well: bursts that keep coming after quiet spells (work that
 * arrives in batches) walk about the budget a second, not that much per burst. Every {@code n} is
 * chosen before its begin's draw, from what came before, so the estimates stay unbiased. Thread-
 * safe.
 */
final class CallSiteSampler {

  /** How often the sampling rate is chosen anew. */
  static final long WINDOW_NANOS = 100_000_000L;

  /** The span a second's budget of walks is counted over. */
  static final long SECOND_NANOS = 1_000_000_000L;

  private static final VarHandle WINDOW_START = field("windowStart");
  private static final VarHandle BEGUN_IN_WINDOW = field("begunInWindow");
  private static final VarHandle WALKS_IN_SECOND = field("walksInSecond");

  private final int walksPerWindow;
  private final int burstWalks;
  private final LongSupplier nanoClock;
  private final IntUnaryOperator randomBelow;
  private final LongAdder walks = new LongAdder();

  // What every nested begin reads, in fields of this object rather than atomics of their own: a
  // begin after a round trip finds them out of its caches, one miss per object.
  private volatile long windowStart;
  private volatile long begunInWindow;
  private volatile int oneIn = 1;

  // The current second: its start and the begins of its closed windows change only when a window
  // closes (ten times a second at most), its walks at each walk.
  private volatile long secondStart;
  private volatile long begunEarlierInSecond;
  private volatile long walksInSecond;

  /**
   * @param walksPerSecond the budget; 0 or less walks every nested begin
   */
  CallSiteSampler(int walksPerSecond) {
    this(walksPerSecond, System::nanoTime, bound -> ThreadLocalRandom.current().nextInt(bound));
  }

  /** With a given clock and random source, for tests. */
  CallSiteSampler(int walksPerSecond, LongSupplier nanoClock, IntUnaryOperator randomBelow) {
    // A budget under 10 a second still walks one per window: at most 10 a second.
    this.walksPerWindow = walksPerSecond <= 0 ? 0 : Math.max(1, walksPerSecond / 10);
    this.burstWalks = Math.max(1, walksPerSecond);
    this.nanoClock = nanoClock;
    this.randomBelow = randomBelow;
    long now = nanoClock.getAsLong();
    this.windowStart = now;
    this.secondStart = now;
  }

  private static VarHandle field(String name) {
    try {
      return MethodHandles.lookup().findVarHandle(CallSiteSampler.class, name, long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Called at a nested begin. Returns how many nested begins this one's walk stands for, or 0 when
   * its call site is not to be walked.
   */
  int weight() {
    if (walksPerWindow == 0) {
      return always();
    }
    long now = nanoClock.getAsLong();
    long start = windowStart;
    long elapsed = now - start;
    if (elapsed >= WINDOW_NANOS && WINDOW_START.compareAndSet(this, start, now)) {
      closeWindow(now, elapsed);
    }
    // A burst after a quiet window would walk every begin until the window ends: past a second's
    // budget the rate also follows this window's begins so far (a walk still counts 1 / its
    // chance).
    long begunSoFar = (long) BEGUN_IN_WINDOW.getAndAdd(this, 1L) + 1;
    long n = Math.max(oneIn, ceilDiv(begunSoFar, burstWalks));
    if (walksInSecond >= burstWalks) {
      // This second's budget is walked: the rest of it follows all of its begins so far.
      n = Math.max(n, ceilDiv(begunEarlierInSecond + begunSoFar, walksPerWindow));
    }
    int chance = (int) Math.min(Integer.MAX_VALUE, n);
    if (chance == 1 || randomBelow.applyAsInt(chance) == 0) {
      walks.increment();
      WALKS_IN_SECOND.getAndAdd(this, 1L);
      return chance;
    }
    return 0;
  }

  /** The thread that closed the window chooses the next rate and moves the second along. */
  private void closeWindow(long now, long elapsed) {
    long begun = (long) BEGUN_IN_WINDOW.getAndSet(this, 0L);
    // Per 100 ms of the time that passed: a quiet second's few begins are not a busy window's.
    double begunPerWindow = begun * (double) WINDOW_NANOS / elapsed;
    oneIn =
        (int) Math.min(Integer.MAX_VALUE, Math.max(1, Math.ceil(begunPerWindow / walksPerWindow)));
    if (now - secondStart >= SECOND_NANOS) {
      secondStart = now;
      begunEarlierInSecond = 0;
      walksInSecond = 0;
    } else {
      begunEarlierInSecond += begun;
    }
  }

  /** A nested begin that is walked whatever the rate (it needs its call site now); returns 1. */
  int always() {
    walks.increment();
    return 1;
  }

  /** Nested begins walked so far. */
  long walks() {
    return walks.sum();
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
