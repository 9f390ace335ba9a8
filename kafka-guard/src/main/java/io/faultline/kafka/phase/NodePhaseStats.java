package io.faultline.kafka.phase;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Running sums of one node's request phases, written on the client's I/O thread and read by the
 * sampler that looks for {@code KAFKA_TRANSMIT_BOUND}. A {@link PhaseRecorder} itself, so it can be
 * chained after the meters. One writer at a time (Kafka confines a {@code NetworkClient} to one
 * thread at a time): plain sums published with opaque writes, no CAS and no striping.
 */
public final class NodePhaseStats implements PhaseRecorder {

  private static final VarHandle REQUESTS;
  private static final VarHandle TOTAL;
  private static final VarHandle PRE_BROKER;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      REQUESTS = l.findVarHandle(NodePhaseStats.class, "requests", long.class);
      TOTAL = l.findVarHandle(NodePhaseStats.class, "totalNanos", long.class);
      PRE_BROKER = l.findVarHandle(NodePhaseStats.class, "preBrokerNanos", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private long requests;
  private long totalNanos;
  private long preBrokerNanos;

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
    PRE_BROKER.setOpaque(this, preBrokerNanos + pre);
    TOTAL.setOpaque(this, totalNanos + pre + responseNanos + receiveNanos);
    REQUESTS.setOpaque(this, requests + 1);
  }

  /** The sums so far. */
  public Snapshot snapshot() {
    return new Snapshot(
        (long) REQUESTS.getOpaque(this),
        (long) PRE_BROKER.getOpaque(this),
        (long) TOTAL.getOpaque(this));
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
