package io.faultline.it.bench;

import java.util.function.LongSupplier;

/**
 * Says when a benchmark child's JIT compiler has gone quiet, which ends its warm-up. On 2 cores a
 * Kafka client's C2 compilation runs for about 12 s and took 38-58 % of the process's CPU in a
 * window measured after a fixed warm-up of 1-7 s: that window measured compilation, not the client,
 * and the agents' ratios swung with it. Quiet is {@value #QUIET_WINDOWS} consecutive windows of
 * {@value #WINDOW_MILLIS} ms in each of which compilation took at most {@value #QUIET_MILLIS} ms.
 * Two such windows were not enough: a capped producer's methods called once per request reach C2 in
 * bursts with quiet seconds between, and its warm-up ended at about 10 s with some 1.2 s of C2
 * compilation still to come inside the measured window.
 */
final class JitQuiet {

  static final long WINDOW_MILLIS = 1000;
  static final long QUIET_MILLIS = 50;
  static final int QUIET_WINDOWS = 5;

  private final LongSupplier compileMillis;
  private long windowStartNanos;
  private long compileAtWindowStart;
  private int quietWindows;

  /**
   * @param compileMillis the compilers' accumulated time so far, ms
   * @param nowNanos the current time
   */
  JitQuiet(LongSupplier compileMillis, long nowNanos) {
    this.compileMillis = compileMillis;
    this.windowStartNanos = nowNanos;
    this.compileAtWindowStart = compileMillis.getAsLong();
  }

  /** Whether the compilers have been quiet long enough; call it often (it closes windows). */
  boolean quiet(long nowNanos) {
    if (nowNanos - windowStartNanos >= WINDOW_MILLIS * 1_000_000) {
      long compiled = compileMillis.getAsLong();
      quietWindows = compiled - compileAtWindowStart <= QUIET_MILLIS ? quietWindows + 1 : 0;
      windowStartNanos = nowNanos;
      compileAtWindowStart = compiled;
    }
    return quietWindows >= QUIET_WINDOWS;
  }
}
