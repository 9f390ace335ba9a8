package io.faultline.kafka.phase;

import java.util.concurrent.atomic.LongAdder;

/**
 * Running sums of one node's request phases, written on the client's I/O thread and read by the
 * sampler that looks for {@code KAFKA_TRANSMIT_BOUND}. A {@link PhaseRecorder} itself, so it can be
 * chained after the meters.
 */
public final class NodePhaseStats implements PhaseRecorder {

  private final LongAdder requests = new LongAdder();
  private final LongAdder totalNanos = new LongAdder();
  private final LongAdder preBrokerNanos = new LongAdder();

  @Override
  public void record(
      short apiKey,
      long queueNanos,
      long transmitNanos,
      long deliveryNanos,
      long responseNanos,
      long receiveNanos) {
    if (responseNanos < 0) {
      return; // no response: no latency to compare with
    }
    long pre = queueNanos + transmitNanos + Math.max(deliveryNanos, 0);
    requests.increment();
    preBrokerNanos.add(pre);
    totalNanos.add(pre + responseNanos + receiveNanos);
  }

  /** The sums so far. */
  public Snapshot snapshot() {
    return new Snapshot(requests.sum(), preBrokerNanos.sum(), totalNanos.sum());
  }

  /**
   * Sums at one moment; {@link #minus} gives an interval's.
   *
   * @param requests requests that got a response
   * @param preBrokerNanos their queue + transmit + delivery time
   * @param totalNanos their client-observed latency
   */
  public record Snapshot(long requests, long preBrokerNanos, long totalNanos) {

    /** Nothing recorded. */
    public static final Snapshot EMPTY = new Snapshot(0, 0, 0);

    /** This minus an earlier snapshot. */
    public Snapshot minus(Snapshot earlier) {
      return new Snapshot(
          requests - earlier.requests,
          preBrokerNanos - earlier.preBrokerNanos,
          totalNanos - earlier.totalNanos);
    }

    /** Mean pre-broker time, nanoseconds; 0 without requests. */
    public double meanPreBrokerNanos() {
      return requests == 0 ? 0 : (double) preBrokerNanos / requests;
    }

    /** Mean latency, nanoseconds; 0 without requests. */
    public double meanTotalNanos() {
      return requests == 0 ? 0 : (double) totalNanos / requests;
    }
  }
}
