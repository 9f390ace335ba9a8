package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ExponentialBucketsTest {

  @Test
  void indexesFollowOtlpsUpperInclusiveBuckets() {
    // Scale 0: bucket i holds (2^i, 2^(i+1)].
    assertThat(ExponentialBuckets.index(2.0, 0)).isEqualTo(0);
    assertThat(ExponentialBuckets.index(1.5, 0)).isEqualTo(0);
    assertThat(ExponentialBuckets.index(1.0, 0)).isEqualTo(-1);
    assertThat(ExponentialBuckets.index(0.75, 0)).isEqualTo(-1);
    assertThat(ExponentialBuckets.index(4.0000001, 0)).isEqualTo(2);
    // Scale 3: eight per power of two; 1 ms lies in bucket floor(log2(0.001) * 8) = -80.
    assertThat(ExponentialBuckets.index(0.001, 3)).isEqualTo(-80);
    assertThat(ExponentialBuckets.index(Math.pow(2, -10), 3)).isEqualTo(-81);
  }

  @Test
  void everyValueIsCountedOnceWithinABucketOfWhereItLies() {
    Random random = new Random(7);
    PhaseHistogram h = new PhaseHistogram();
    long[] values = new long[20_000];
    for (int i = 0; i < values.length; i++) {
      // 2 µs to ~30 s, log-uniform: every octave of the phases' range.
      values[i] = (long) Math.exp(Math.log(2_000) + random.nextDouble() * Math.log(15_000_000));
      h.record(values[i]);
    }
    ExponentialBuckets.Histogram e = ExponentialBuckets.of(h.snapshot().buckets());
    assertThat(e.scale()).isEqualTo(ExponentialBuckets.SCALE);
    assertThat(Arrays.stream(e.counts()).sum()).isEqualTo(values.length);

    // The exact histogram of the same values, and how far the mapped one strays from it.
    int lo = Integer.MAX_VALUE;
    int hi = Integer.MIN_VALUE;
    for (long v : values) {
      int i = ExponentialBuckets.index(v / 1e9, ExponentialBuckets.SCALE);
      lo = Math.min(lo, i);
      hi = Math.max(hi, i);
    }
    assertThat(e.offset()).isBetween(lo - 1, lo + 1);
    assertThat(e.offset() + e.counts().length - 1).isBetween(hi - 1, hi + 1);
    for (double q : new double[] {0.5, 0.9, 0.99}) {
      long[] sorted = values.clone();
      Arrays.sort(sorted);
      double exact = sorted[(int) Math.ceil(q * sorted.length) - 1] / 1e9;
      double upper = upperBoundOfQuantile(e, q);
      // The bucket holding the quantile, read as its upper edge: within two buckets (~19 %).
      assertThat(upper / exact).as("q=%s", q).isBetween(1 / 1.2, 1.2);
    }
  }

  @Test
  void anEmptyHistogramHasNoBuckets() {
    ExponentialBuckets.Histogram e = ExponentialBuckets.of(PhaseBuckets.newCounts());
    assertThat(e.counts()).isEmpty();
  }

  private static double upperBoundOfQuantile(ExponentialBuckets.Histogram e, double q) {
    long total = Arrays.stream(e.counts()).sum();
    long rank = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < e.counts().length; i++) {
      seen += e.counts()[i];
      if (seen >= rank) {
        return Math.pow(2, (e.offset() + i + 1) / (double) (1 << e.scale()));
      }
    }
    throw new AssertionError("no bucket holds q=" + q);
  }
}
