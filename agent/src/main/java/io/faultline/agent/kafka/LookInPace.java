package io.faultline.agent.kafka;

/**
 * How long the delivery sampler sleeps while connections wait for delivery: at the full pace
 * ({@code kafka.phases.delivery-after}, and until the first waiting connection is due) while some
 * requests are still unanswered by then, every {@value #QUIET_MILLIS} ms while each is answered in
 * time. A look-in is a timer wake-up (about 40-60 µs of CPU on a virtual machine, see {@link
 * WakeBudget}); a healthy producer sending a few hundred requests a second has a send outstanding
 * almost all the time, each due {@code delivery-after} after it and answered before that, so waking
 * when each became due, or every {@code delivery-after}, kept the sampler waking 80-200 times a
 * second for requests it never had to read. Once one request is found due, the full pace holds for
 * {@value #HOLD_MILLIS} ms after the last, so a connection that stays slow (the held-up requests
 * delivery timing exists for) is followed at full resolution; only the first due request after a
 * healthy spell is read up to {@value #QUIET_MILLIS} ms late.
 *
 * <p>Used by the sampler thread alone.
 */
final class LookInPace {

  static final long QUIET_MILLIS = 50;
  static final long HOLD_MILLIS = 250;

  /**
   * The quiet pace while every waiting connection's client looks in itself: its thread's {@code
   * Selector.poll} ends when the first send becomes due and wakes the sampler then ({@link
   * DeliverySampler#nudge}), so the sampler's own look-ins only cover a client thread that stopped
   * polling.
   */
  static final long CLIENTS_LOOK_IN_MILLIS = 1000;

  private static final long MIN_LOOK_NANOS = 1_000_000L;

  private final long fastNanos;
  private final long quietNanos;
  private final long clientsLookInNanos;
  private long lastDueNanos;
  private boolean anyDue;

  /**
   * @param deliveryAfterNanos {@code kafka.phases.delivery-after}: the full pace (at least 1 ms);
   *     with 0 (every send is read) the sampler never slows down
   */
  LookInPace(long deliveryAfterNanos) {
    this.fastNanos = Math.max(MIN_LOOK_NANOS, deliveryAfterNanos);
    this.quietNanos =
        deliveryAfterNanos <= 0 ? fastNanos : Math.max(fastNanos, QUIET_MILLIS * 1_000_000L);
    this.clientsLookInNanos =
        deliveryAfterNanos <= 0
            ? fastNanos
            : Math.max(quietNanos, CLIENTS_LOOK_IN_MILLIS * 1_000_000L);
  }

  /** A look-in at {@code nowNanos} found a connection due. */
  void dueFound(long nowNanos) {
    anyDue = true;
    lastDueNanos = nowNanos;
  }

  /** How long until the next look-in, from {@code nowNanos}, when no connection waits. */
  long lookNanos(long nowNanos) {
    return lookNanos(nowNanos, false);
  }

  /**
   * {@link #lookNanos(long)}; {@code clientsLookIn}: every connection's client thread wakes the
   * sampler itself when a send becomes due, so the quiet pace is {@value #CLIENTS_LOOK_IN_MILLIS}
   * ms.
   */
  long lookNanos(long nowNanos, boolean clientsLookIn) {
    return fast(nowNanos, clientsLookIn) ? fastNanos : quiet(clientsLookIn);
  }

  /**
   * How long to sleep from {@code nowNanos} when the first waiting connection is due in {@code
   * untilDueNanos}: until then at the full pace; at the quiet pace its request is most likely
   * answered first, and chasing each one's due time is what kept a healthy producer's sampler busy.
   */
  long sleepNanos(long nowNanos, long untilDueNanos) {
    return sleepNanos(nowNanos, untilDueNanos, false);
  }

  /**
   * {@link #sleepNanos(long, long)}; {@code clientsLookIn} as for {@link #lookNanos(long,
   * boolean)}.
   */
  long sleepNanos(long nowNanos, long untilDueNanos, boolean clientsLookIn) {
    return fast(nowNanos, clientsLookIn)
        ? Math.min(untilDueNanos, fastNanos)
        : quiet(clientsLookIn);
  }

  /** The full pace: {@code kafka.phases.delivery-after}, at least 1 ms. */
  long fastNanos() {
    return fastNanos;
  }

  private long quiet(boolean clientsLookIn) {
    return clientsLookIn ? clientsLookInNanos : quietNanos;
  }

  /**
   * Whether the full pace holds: a connection was found due within the last {@value #HOLD_MILLIS}
   * ms, and not every client looks in itself (one that does wakes the sampler at its next due send,
   * so holding the pace would only find what it reports anyway).
   */
  boolean fast(long nowNanos, boolean clientsLookIn) {
    return !clientsLookIn && fast(nowNanos);
  }

  private boolean fast(long nowNanos) {
    return anyDue && nowNanos - lastDueNanos < HOLD_MILLIS * 1_000_000L;
  }
}
