package io.faultline.kafka.bench;

import io.faultline.kafka.phase.ConnectionPhaseTracker;

/**
 * The benchmarks' request: the six tracker events of one produce-like request, 10 ns apart, and the
 * bytes the peer acknowledged so far. One per benchmark state (not thread-safe).
 */
final class TrackedRequests {

  private int correlation;
  private long acked = ConnectionPhaseTracker.SYN_OCTETS;

  /** One request on {@code tracker} starting at {@code t0}; what its completion returned. */
  long request(ConnectionPhaseTracker tracker, long t0) {
    int c = correlation++;
    tracker.requestCreated(c, (short) 0, true, t0);
    tracker.bytesWritten(1_000, t0 + 10);
    tracker.sendCompleted(1_000, t0 + 20);
    acked += 1_000;
    if (tracker.awaitingDelivery()) {
      tracker.tcpSample(acked, t0 + 30);
    }
    tracker.responseStarted(t0 + 40);
    return tracker.responseCompleted(c, t0 + 50);
  }
}
