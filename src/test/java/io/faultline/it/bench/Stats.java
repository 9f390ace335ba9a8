package io.faultline.it.bench;

import java.util.Arrays;

/** Medians and percentiles of measured values. */
final class Stats {

  private Stats() {}

  /** The {@code p}-th percentile (nearest rank) of sorted values; 0 for none. */
  static long percentileOfSorted(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
  }

  /** The median (the mean of the middle two for an even count). */
  static double median(double[] values) {
    double[] sorted = Arrays.copyOf(values, values.length);
    Arrays.sort(sorted);
    int n = sorted.length;
    if (n == 0) {
      return Double.NaN;
    }
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }
}
