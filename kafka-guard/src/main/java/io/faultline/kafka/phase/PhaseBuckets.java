package io.faultline.kafka.phase;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The few bucket bounds under which the phase and gap timers are exported as classic histograms
 * ({@code _bucket{le=...}}), read off the log-linear {@link PhaseHistogram}s at scrape time so the
 * hot path records nothing more. The log-linear buckets are finer (12.5 %) than any bound set a
 * dashboard needs; the coarse set is what a backend stores per series, so it stays small.
 *
 * <p>A bound rarely falls on an edge of the log-linear buckets; each is read at the nearest edge,
 * so a bucket counts the values up to within 6.25 % of its {@code le}. Every instance with the same
 * bounds reads them the same way, so buckets add up across instances.
 */
public final class PhaseBuckets {

  /** 1 ms to 10 s, twelve bounds: the range a Kafka request's phases span, healthy to stuck. */
  public static final List<Duration> DEFAULT =
      List.of(
          Duration.ofMillis(1),
          Duration.ofMillis(2),
          Duration.ofMillis(5),
          Duration.ofMillis(10),
          Duration.ofMillis(25),
          Duration.ofMillis(50),
          Duration.ofMillis(100),
          Duration.ofMillis(250),
          Duration.ofMillis(500),
          Duration.ofSeconds(1),
          Duration.ofSeconds(5),
          Duration.ofSeconds(10));

  private final double[] boundsSeconds;
  // For each bound, the last log-linear bucket counted under it (-1: none).
  private final int[] lastBucket;

  private PhaseBuckets(double[] boundsSeconds, int[] lastBucket) {
    this.boundsSeconds = boundsSeconds;
    this.lastBucket = lastBucket;
  }

  /**
   * Buckets with these upper bounds.
   *
   * @param bounds positive and ascending
   * @throws IllegalArgumentException when they are not
   */
  public static PhaseBuckets of(List<Duration> bounds) {
    Objects.requireNonNull(bounds, "bounds");
    double[] seconds = new double[bounds.size()];
    int[] last = new int[bounds.size()];
    long previous = 0;
    for (int i = 0; i < bounds.size(); i++) {
      Duration d = bounds.get(i);
      // Beyond ~292 years a bound is past every bucket anyway.
      long nanos = d.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : d.toNanos();
      if (nanos <= previous) {
        throw new IllegalArgumentException("bucket bounds must be positive and ascending");
      }
      previous = nanos;
      seconds[i] = nanos / 1e9;
      last[i] = nearestEdge(nanos);
    }
    return new PhaseBuckets(seconds, last);
  }

  /** The default bounds, {@link #DEFAULT}. */
  public static PhaseBuckets defaults() {
    return of(DEFAULT);
  }

  /** The last log-linear bucket whose upper edge is nearest {@code nanos}; -1 for the edge at 0. */
  static int nearestEdge(long nanos) {
    int b = PhaseHistogram.bucket(nanos); // upperBound(b - 1) <= nanos < upperBound(b)
    long below = b == 0 ? 0 : PhaseHistogram.upperBound(b - 1);
    long above = PhaseHistogram.upperBound(b);
    return nanos - below <= above - nanos ? b - 1 : b;
  }

  /** The bounds, seconds, ascending (without {@code +Inf}). */
  public double[] boundsSeconds() {
    return boundsSeconds.clone();
  }

  /** How many bounds (the histogram has one more bucket, {@code +Inf}). */
  public int size() {
    return boundsSeconds.length;
  }

  /** An empty array of per-log-linear-bucket counts, for {@link PhaseMeters.Timer#addCountsTo}. */
  public static long[] newCounts() {
    return new long[PhaseHistogram.BUCKETS];
  }

  /**
   * The cumulative count under each bound.
   *
   * @param counts counts per log-linear bucket ({@link #newCounts})
   * @return one count per bound, ascending with the bounds
   */
  public long[] cumulative(long[] counts) {
    long[] out = new long[lastBucket.length];
    long running = 0;
    int next = 0;
    for (int i = 0; i < lastBucket.length; i++) {
      for (; next <= lastBucket[i]; next++) {
        running += counts[next];
      }
      out[i] = running;
    }
    return out;
  }
}
