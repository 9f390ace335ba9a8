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
  private static final VarHandle WINDOW;
  private static final VarHandle COUNT;
  private static final VarHandle SUM;
  private static final VarHandle MAX;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      WINDOW = lookup.findVarHandle(PhaseHistogram.class, "window", long[].class);
      COUNT = lookup.findVarHandle(PhaseHistogram.class, "count", long.class);
      SUM = lookup.findVarHandle(PhaseHistogram.class, "sum", long.class);
      MAX = lookup.findVarHandle(PhaseHistogram.class, "max", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  // The counts live in one array covering only the buckets seen so far, widened a power of two
  // (eight buckets) at a time: most histograms see a few powers of two (one API's phase on one
  // connection), and an agent with 1,000 clients holds tens of thousands of them. [0] is the first
  // bucket's index, [1..] the counts. Replaced whole when widened, so a reader sees a consistent
  // window (at worst one that misses the latest values).
  private static final int ALIGN = SUB_BUCKETS;

  private long[] window;
  private long count;
  private long sum;
  private long max;

  /** Records one duration; negative values count as zero. Call from one thread at a time. */
  public void record(long nanos) {
    long v = Math.max(0, nanos);
    int b = bucket(v);
    long[] w = window;
    int slot;
    if (w == null || (slot = b - (int) w[0] + 1) < 1 || slot >= w.length) {
      w = widen(w, b);
      slot = b - (int) w[0] + 1;
    }
    LONGS.setOpaque(w, slot, w[slot] + 1);
    SUM.setOpaque(this, sum + v);
    if (v > max) {
      MAX.setOpaque(this, v);
    }
    COUNT.setOpaque(this, count + 1);
  }

  private long[] widen(long[] old, int bucket) {
    int lo = bucket;
    int hi = bucket + 1;
    if (old != null) {
      lo = Math.min(lo, (int) old[0]);
      hi = Math.max(hi, (int) old[0] + old.length - 1);
    }
    lo = lo / ALIGN * ALIGN;
    hi = Math.min(BUCKETS, (hi + ALIGN - 1) / ALIGN * ALIGN);
    long[] w = new long[1 + hi - lo];
    w[0] = lo;
    if (old != null) {
      System.arraycopy(old, 1, w, 1 + (int) old[0] - lo, old.length - 1);
    }
    WINDOW.setRelease(this, w); // readers see it filled
    return w;
  }

  /** Values recorded so far. */
  public long count() {
    return (long) COUNT.getOpaque(this);
  }

  /** Their sum, nanoseconds. */
  public long sumNanos() {
    return (long) SUM.getOpaque(this);
  }

  /**
   * Adds this histogram's count per bucket into {@code into} ({@link #BUCKETS} long), without
   * allocating: how a scrape sums many histograms into one.
   */
  void addCountsTo(long[] into) {
    long[] w = (long[]) WINDOW.getAcquire(this);
    if (w != null) {
      int lo = (int) w[0];
      for (int slot = 1; slot < w.length; slot++) {
        into[lo + slot - 1] += (long) LONGS.getOpaque(w, slot);
      }
    }
  }

  /** A consistent-enough copy for percentiles. */
  public Snapshot snapshot() {
    long[] buckets = new long[BUCKETS];
    long[] w = (long[]) WINDOW.getAcquire(this);
    if (w != null) {
      int lo = (int) w[0];
      for (int slot = 1; slot < w.length; slot++) {
        buckets[lo + slot - 1] = (long) LONGS.getOpaque(w, slot);
      }
    }
    return new Snapshot(
        (long) COUNT.getOpaque(this),
        (long) SUM.getOpaque(this),
        (long) MAX.getOpaque(this),
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
