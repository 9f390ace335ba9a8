package io.faultline.it.bench;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A benchmark child's warm-up: at least a number of records, then on until the JIT has gone quiet
 * ({@link JitQuiet}) or a time limit has passed since the start (a run that reaches it says so in
 * its result; a limit of 0 waits for records only).
 *
 * <p>A child that takes turns waits between them, and every turn starts after that wait, so its
 * warm-up does the same: the first time it would end, it pauses for {@value #PAUSE_MILLIS} ms, then
 * goes on until the JIT is quiet again, with a time limit of its own. The client's code that runs
 * after a quiet spell (a batch started afresh, an idle check that now finds something) took
 * branches the saturated warm-up never had, and the JIT dropped and recompiled whole compiled paths
 * at the first turn's start: up to a second of the child's one CPU inside its first turn.
 */
final class Warmup {

  /**
   * The warm-up's pause: about the wait between two turns of a child (the other two children's
   * turns), longer than the second after which a client's and the agent's quiet-connection paths
   * run.
   */
  static final long PAUSE_MILLIS = 5_000;

  private final long minRecords;
  private final long maxNanos;
  private final long pauseMillis;
  private final LongSupplier clock;
  private final LongSupplier compileMillis;
  private final LongConsumer sleeper;
  private final long startNanos;
  private long deadlineNanos;
  private JitQuiet jit;
  private boolean paused;
  private long endNanos;
  private boolean quiet;

  /**
   * Starts the warm-up now.
   *
   * @param minRecords records to send or read at least
   * @param maxSeconds how long to wait for the JIT at most, from now, and again after the pause
   * @param pauses whether it pauses once before it ends ({@link #PAUSE_MILLIS}): the child takes
   *     turns. A warm-up of no records never pauses.
   */
  Warmup(long minRecords, int maxSeconds, boolean pauses) {
    this(
        minRecords,
        maxSeconds,
        pauses ? PAUSE_MILLIS : 0,
        System::nanoTime,
        ManagementFactory.getCompilationMXBean()::getTotalCompilationTime,
        Warmup::sleep);
  }

  Warmup(
      long minRecords,
      int maxSeconds,
      long pauseMillis,
      LongSupplier clock,
      LongSupplier compileMillis,
      LongConsumer sleeper) {
    this.minRecords = minRecords;
    this.maxNanos = TimeUnit.SECONDS.toNanos(maxSeconds);
    this.pauseMillis = pauseMillis;
    this.clock = clock;
    this.compileMillis = compileMillis;
    this.sleeper = sleeper;
    this.startNanos = clock.getAsLong();
    this.deadlineNanos = startNanos + maxNanos;
    this.jit = new JitQuiet(compileMillis, startNanos);
    this.paused = pauseMillis <= 0 || minRecords <= 0;
  }

  /** Whether the warm-up goes on after {@code records} records; call it after each step. */
  boolean goesOn(long records) {
    long now = clock.getAsLong();
    boolean jitQuiet = jit.quiet(now);
    if (records < minRecords || !(jitQuiet || now - deadlineNanos >= 0)) {
      return true;
    }
    if (!paused) {
      paused = true;
      sleeper.accept(pauseMillis);
      long resumed = clock.getAsLong();
      // Quiet again counts from the sends after the pause, whose paths the JIT compiles then.
      jit = new JitQuiet(compileMillis, resumed);
      deadlineNanos = resumed + maxNanos;
      return true;
    }
    endNanos = now;
    quiet = jitQuiet;
    return false;
  }

  /** How long the warm-up took, its pause included, ns (until now if it has not ended). */
  long nanos() {
    return (endNanos == 0 ? clock.getAsLong() : endNanos) - startNanos;
  }

  /** Whether the JIT was quiet when the warm-up ended (false: it ended at its limit). */
  boolean quiet() {
    return quiet;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
