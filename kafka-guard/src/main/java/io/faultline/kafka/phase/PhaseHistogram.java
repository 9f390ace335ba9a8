package io.faultline.kafka.phase;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A histogram of durations with one writer and any number of readers: the client's I/O thread
 * records (a handful of plain array writes, no lock, no allocation, no CAS), the scrape and the
 * status page read. Buckets are log-linear — {@value #SUB_BUCKETS} per power of two from 1 µs to
 * about 18 minutes — so a percentile is within 1/{@value #SUB_BUCKETS} of the true value; below 1
 * µs is one bucket.
 *
 * <p>Why not a Micrometer {@code Timer} on the hot path: six {@code Timer.record} calls per request
 * cost ~300 ns (measured, docs/kafka.md); this costs a few ns each, and the totals are published to
 * Micrometer as {@code FunctionTimer}s read at scrape time.
 *
 * <p>Writes are opaque (never torn, visible soon); a reader may see a count one request ahead of
 * its sum, which no reading here depends on.
 */
public final class PhaseHistogram {

  /** Sub-buckets per power of two (12.5 % resolution). */
  static final int SUB_BUCKETS = 8;

  private static final int SUB_BITS = 3;
  private static final int MIN_EXPONENT = 10; // 1024 ns
  private static final int MAX_EXPONENT = 40; // ~18 min
  static final int BUCKETS = (MAX_EXPONENT - MIN_EXPONENT) * SUB_BUCKETS + 2;

  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle CHUNK_REFS = MethodHandles.arrayElementVarHandle(long[][].class);

  // [0] count, [1] sum, [2] max.
  private static final int COUNT = 0;
  private static final int SUM = 1;
  private static final int MAX = 2;

  // Buckets live in chunks of eight (one power of two), allocated on first use: most histograms
  // see a few powers of two only (a client's metadata requests, one API's phases), and an agent
  // with 1,000 clients holds tens of thousands of them — 2 KB each when they were one array.
  private static final int CHUNK_BITS = 3;
  private static final int CHUNK = 1 << CHUNK_BITS;
  private static final int CHUNKS = (BUCKETS + CHUNK - 1) / CHUNK;

  private final long[] totals = new long[3];
  private final long[][] chunks = new long[CHUNKS][];

  /** Records one duration; negative values count as zero. Call from one thread at a time. */
  public void record(long nanos) {
    long v = Math.max(0, nanos);
    int b = bucket(v);
    long[] chunk = chunks[b >>> CHUNK_BITS];
    if (chunk == null) {
      chunk = new long[CHUNK];
      CHUNK_REFS.setRelease(chunks, b >>> CHUNK_BITS, chunk); // readers see it zeroed
    }
    int slot = b & (CHUNK - 1);
    LONGS.setOpaque(chunk, slot, chunk[slot] + 1);
    long[] t = totals;
    LONGS.setOpaque(t, SUM, t[SUM] + v);
    if (v > t[MAX]) {
      LONGS.setOpaque(t, MAX, v);
    }
    LONGS.setOpaque(t, COUNT, t[COUNT] + 1);
  }

  /** Values recorded so far. */
  public long count() {
    return (long) LONGS.getOpaque(totals, COUNT);
  }

  /** Their sum, nanoseconds. */
  public long sumNanos() {
    return (long) LONGS.getOpaque(totals, SUM);
  }

  /** A consistent-enough copy for percentiles. */
  public Snapshot snapshot() {
    long[] buckets = new long[BUCKETS];
    for (int c = 0; c < CHUNKS; c++) {
      long[] chunk = (long[]) CHUNK_REFS.getAcquire(chunks, c);
      if (chunk == null) {
        continue;
      }
      for (int slot = 0; slot < CHUNK; slot++) {
        int i = (c << CHUNK_BITS) + slot;
        if (i < BUCKETS) {
          buckets[i] = (long) LONGS.getOpaque(chunk, slot);
        }
      }
    }
    return new Snapshot(
        (long) LONGS.getOpaque(totals, COUNT),
        (long) LONGS.getOpaque(totals, SUM),
        (long) LONGS.getOpaque(totals, MAX),
        buckets);
  }

  static int bucket(long v) {
    if (v < (1L << MIN_EXPONENT)) {
      return 0;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(v);
    if (exponent >= MAX_EXPONENT) {
      return BUCKETS - 1;
    }
    int sub = (int) (v >>> (exponent - SUB_BITS)) & (SUB_BUCKETS - 1);
    return 1 + (exponent - MIN_EXPONENT) * SUB_BUCKETS + sub;
  }

  /** The largest value bucket {@code index} holds (exclusive upper bound). */
  static long upperBound(int index) {
    if (index == 0) {
      return 1L << MIN_EXPONENT;
    }
    if (index >= BUCKETS - 1) {
      return Long.MAX_VALUE;
    }
    int exponent = MIN_EXPONENT + (index - 1) / SUB_BUCKETS;
    int sub = (index - 1) % SUB_BUCKETS;
    return (1L << exponent) + ((long) (sub + 1) << (exponent - SUB_BITS));
  }

  /**
   * The histogram at one moment.
   *
   * @param count values
   * @param sumNanos their sum
   * @param maxNanos the largest
   * @param buckets counts per bucket
   */
  public record Snapshot(long count, long sumNanos, long maxNanos, long[] buckets) {

    /** Mean, nanoseconds; 0 when empty. */
    public double meanNanos() {
      return count == 0 ? 0 : (double) sumNanos / count;
    }

    /**
     * The {@code quantile} (0..1), nanoseconds: the upper bound of the bucket that holds it, never
     * above the maximum seen; 0 when empty.
     */
    public long percentileNanos(double quantile) {
      long total = 0;
      for (long b : buckets) {
        total += b;
      }
      if (total == 0) {
        return 0;
      }
      long rank = (long) Math.ceil(Math.min(1, Math.max(0, quantile)) * total);
      long seen = 0;
      for (int i = 0; i < buckets.length; i++) {
        seen += buckets[i];
        if (seen >= Math.max(1, rank)) {
          return Math.min(upperBound(i), maxNanos);
        }
      }
      return maxNanos;
    }
  }
}
