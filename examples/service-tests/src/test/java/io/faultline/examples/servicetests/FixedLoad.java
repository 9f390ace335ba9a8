package io.faultline.examples.servicetests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A fixed load of receipts through one {@link PaymentEvents}: {@code perSecond} payments of {@code
 * receiptBytes} each, paced by the clock, whatever the broker does. Each payment's latency runs
 * from the moment it was due to its acknowledgement, so a producer that falls behind shows it.
 */
final class FixedLoad {

  private final int perSecond;
  private final String receipt;

  FixedLoad(int perSecond, int receiptBytes) {
    this.perSecond = perSecond;
    this.receipt = "r".repeat(receiptBytes);
  }

  /**
   * Runs the load for {@code duration}, waits up to {@code drain} for the acknowledgements, and
   * returns the latencies of the payments due after {@code warmUp}; one not acknowledged by then
   * counts as taking forever.
   */
  Latencies run(PaymentEvents events, Duration warmUp, Duration duration, Duration drain)
      throws Exception {
    long start = System.nanoTime();
    long intervalNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
    long count = duration.toNanos() / intervalNanos;
    List<CompletableFuture<Long>> measured = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      long due = start + i * intervalNanos;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      CompletableFuture<Long> latency =
          events.paidWithReceipt((int) i, 10, receipt).thenApply(v -> System.nanoTime() - due);
      if (due - start >= warmUp.toNanos()) {
        measured.add(latency);
      }
    }
    long deadline = System.nanoTime() + drain.toNanos();
    long[] nanos = new long[measured.size()];
    for (int i = 0; i < nanos.length; i++) {
      try {
        nanos[i] =
            measured.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        nanos[i] = Long.MAX_VALUE;
      }
    }
    return new Latencies(nanos);
  }
}
