package io.faultline.it.bench;

/**
 * A benchmark child's warm-up: at least a number of records, then on until the JIT has gone quiet
 * ({@link JitQuiet}) or a time limit has passed since the start (a run that reaches it says so in
 * its result; a limit of 0 waits for records only).
 */
final class Warmup {

  private final long minRecords;
  private final long startNanos;
  private final long deadlineNanos;
  private final JitQuiet jit;
  private long endNanos;
  private boolean quiet;

  /**
   * Starts the warm-up now.
   *
   * @param minRecords records to send or read at least
   * @param maxSeconds how long to wait for the JIT at most, from now
   */
  Warmup(long minRecords, int maxSeconds) {
    this.minRecords = minRecords;
    this.startNanos = System.nanoTime();
    this.deadlineNanos = startNanos + maxSeconds * 1_000_000_000L;
    this.jit = JitQuiet.ofThisJvm();
  }

  /** Whether the warm-up goes on after {@code records} records; call it after each step. */
  boolean goesOn(long records) {
    long now = System.nanoTime();
    boolean jitQuiet = jit.quiet(now);
    if (records >= minRecords && (jitQuiet || now - deadlineNanos >= 0)) {
      endNanos = now;
      quiet = jitQuiet;
      return false;
    }
    return true;
  }

  /** How long the warm-up took, ns (until now if {@link #goesOn} never returned false). */
  long nanos() {
    return (endNanos == 0 ? System.nanoTime() : endNanos) - startNanos;
  }

  /** Whether the JIT was quiet when the warm-up ended (false: it ended at its limit). */
  boolean quiet() {
    return quiet;
  }
}
