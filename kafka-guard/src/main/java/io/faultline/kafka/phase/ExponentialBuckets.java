package io.faultline.kafka.phase;

/**
 * The phase and gap timers as base-2 exponential histograms (OTLP's {@code ExponentialHistogram}),
 * read off the log-linear {@link PhaseHistogram} counts at export time, so the hot path records
 * nothing more. At {@link #SCALE} 3 a bucket spans a factor of 2<sup>1/8</sup> (about 9 %), as fine
 * as the log-linear buckets (6.25-12.5 %); their edges do not meet, so each log-linear bucket's
 * count goes to the exponential bucket that holds its midpoint, and a value may be counted one
 * bucket from where it lies. Every instance maps the same way, so the buckets add up across
 * instances.
 */
public final class ExponentialBuckets {

  /** Eight buckets per power of two. */
  public static final int SCALE = 3;

  // For each log-linear bucket, its exponential bucket index (OTLP's: index i holds values in
  // (base^i, base^(i+1)] seconds).
  private static final int[] INDEX = new int[PhaseHistogram.BUCKETS];

  static {
    for (int b = 0; b < PhaseHistogram.BUCKETS; b++) {
      INDEX[b] = index(midpointNanos(b) / 1e9, SCALE);
    }
  }

  private ExponentialBuckets() {}

  /**
   * A histogram's buckets.
   *
   * @param scale the scale: a bucket spans a factor of 2<sup>2<sup>-scale</sup></sup>
   * @param offset the index of the first bucket in {@code counts}
   * @param counts counts of consecutive buckets from {@code offset}
   */
  public record Histogram(int scale, int offset, long[] counts) {}

  /**
   * The exponential buckets of the counts per log-linear bucket ({@link PhaseBuckets#newCounts}).
   */
  public static Histogram of(long[] logLinearCounts) {
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    for (int b = 0; b < logLinearCounts.length; b++) {
      if (logLinearCounts[b] != 0) {
        lo = Math.min(lo, INDEX[b]);
        hi = Math.max(hi, INDEX[b]);
      }
    }
    if (lo > hi) {
      return new Histogram(SCALE, 0, new long[0]);
    }
    long[] counts = new long[hi - lo + 1];
    for (int b = 0; b < logLinearCounts.length; b++) {
      if (logLinearCounts[b] != 0) {
        counts[INDEX[b] - lo] += logLinearCounts[b];
      }
    }
    return new Histogram(SCALE, lo, counts);
  }

  /** OTLP's index of the bucket holding {@code seconds} (above 0) at {@code scale}. */
  static int index(double seconds, int scale) {
    double scaled = Math.log(seconds) / Math.log(2) * (1 << scale);
    int index = (int) Math.ceil(scaled) - 1;
    // log() is not exact: a value on a bucket's upper edge belongs to that bucket.
    if (Math.pow(2, (index + 1) / (double) (1 << scale)) < seconds) {
      index++;
    } else if (Math.pow(2, index / (double) (1 << scale)) >= seconds) {
      index--;
    }
    return index;
  }

  /** The middle of log-linear bucket {@code b}, nanoseconds (the last one: its lower edge). */
  static double midpointNanos(int b) {
    long lower = b == 0 ? 0 : PhaseHistogram.upperBound(b - 1);
    long upper = PhaseHistogram.upperBound(b);
    return upper == Long.MAX_VALUE ? lower : (lower + upper) / 2.0;
  }
}
