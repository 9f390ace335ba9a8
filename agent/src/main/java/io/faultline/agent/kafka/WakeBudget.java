package io.faultline.agent.kafka;

/**
 * How long the delivery sampler sleeps between reads: its period while a token bucket of wakes
 * allows, longer once a sustained load has used the burst up. A timed wake costs the sampler thread
 * about 40 µs of CPU on a virtual machine (the timer and the context switch, not TCP_INFO), so an
 * unbounded 500 µs period is 8 % of a core under constant traffic; the budget bounds that while a
 * client sending now and then keeps the full resolution. Requests answered before a throttled
 * sampler looks are reported with their delivery merged into the response phase, never with a wrong
 * split; one acknowledged between two looks is placed between the last and its response, within an
 * eighth of its delivery, or merged ({@code ConnectionPhaseTracker}).
 *
 * <p>Used by the sampler thread alone.
 */
final class WakeBudget {

  private final long periodNanos;
  private final double wakesPerNano;
  private final double burst;
  private double tokens;
  private long refilledAt;

  /**
   * @param periodNanos the shortest sleep
   * @param wakesPerSecond the sustained wake rate; at least 1
   * @param burst wakes allowed at the full period before the rate applies; at least 1
   * @param nowNanos {@link System#nanoTime()} at creation (the bucket starts full)
   */
  WakeBudget(long periodNanos, int wakesPerSecond, int burst, long nowNanos) {
    this.periodNanos = periodNanos;
    this.wakesPerNano = Math.max(1, wakesPerSecond) / 1e9;
    this.burst = Math.max(1, burst);
    this.tokens = this.burst;
    this.refilledAt = nowNanos;
  }

  /** The sampler just woke and read its connections at {@code nowNanos}: how long to sleep now. */
  long sleepAfterWake(long nowNanos) {
    refill(nowNanos);
    tokens -= 1;
    if (tokens >= 1) {
      return periodNanos;
    }
    // Sleep until the bucket holds one wake again, never shorter than the period.
    return Math.max(periodNanos, (long) Math.ceil((1 - tokens) / wakesPerNano));
  }

  private void refill(long nowNanos) {
    long elapsed = nowNanos - refilledAt;
    if (elapsed > 0) {
      tokens = Math.min(burst, tokens + elapsed * wakesPerNano);
      refilledAt = nowNanos;
    }
  }
}
