package io.faultline.examples.servicetests;

import java.util.Arrays;

/** Send-to-acknowledgement latencies of a run, in nanoseconds. */
final class Latencies {

  private final long[] sorted;

  Latencies(long[] nanos) {
    if (nanos.length == 0) {
      throw new IllegalArgumentException("no latencies measured");
    }
    this.sorted = nanos.clone();
    Arrays.sort(sorted);
  }

  /** The {@code q} quantile (0 to 1), in milliseconds; infinite if not acknowledged in time. */
  double millis(double q) {
    int i = (int) Math.ceil(q * sorted.length) - 1;
    long nanos = sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    return nanos == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : nanos / 1e6;
  }

  /** How many were not acknowledged in time. */
  long unacknowledged() {
    return Arrays.stream(sorted).filter(n -> n == Long.MAX_VALUE).count();
  }

  @Override
  public String toString() {
    return String.format(
        "%d payments, p50 %.0f ms, p99 %.0f ms, max %.0f ms, %d not acknowledged in time",
        sorted.length, millis(0.5), millis(0.99), millis(1), unacknowledged());
  }
}
