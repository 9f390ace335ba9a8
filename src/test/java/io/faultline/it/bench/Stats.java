package io.faultline.it.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

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

  /**
   * How far the rounds behind a median spread: {@code "rounds <lowest> to <highest>"}, each end in
   * {@code format}; empty for fewer than two rounds, where there is no spread to show.
   */
  static String roundsRange(double[] rounds, String format) {
    if (rounds.length < 2) {
      return "";
    }
    double lowest = Arrays.stream(rounds).min().getAsDouble();
    double highest = Arrays.stream(rounds).max().getAsDouble();
    return "rounds "
        + String.format(Locale.ROOT, format, lowest)
        + " to "
        + String.format(Locale.ROOT, format, highest);
  }

  /** {@code value}, then the notes that are not empty in one parenthesis: {@code "v (a; b)"}. */
  static String withNotes(String value, String... notes) {
    List<String> present = Arrays.stream(notes).filter(n -> !n.isEmpty()).toList();
    return present.isEmpty() ? value : value + " (" + String.join("; ", present) + ")";
  }
}
