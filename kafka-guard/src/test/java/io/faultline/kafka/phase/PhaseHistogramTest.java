package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PhaseHistogramTest {

  @Test
  void bucketsAreContiguousAndEachValueLiesBelowItsUpperBound() {
    long previousBound = 0;
    for (int i = 0; i < PhaseHistogram.BUCKETS - 1; i++) {
      long bound = PhaseHistogram.upperBound(i);
      assertThat(bound).as("bucket %d", i).isGreaterThan(previousBound);
      assertThat(PhaseHistogram.bucket(bound - 1)).as("last value of bucket %d", i).isEqualTo(i);
      assertThat(PhaseHistogram.bucket(bound))
          .as("first value after bucket %d", i)
          .isEqualTo(i + 1);
      previousBound = bound;
    }
    assertThat(PhaseHistogram.bucket(Long.MAX_VALUE)).isEqualTo(PhaseHistogram.BUCKETS - 1);
    assertThat(PhaseHistogram.bucket(0)).isZero();
  }

  @Test
  void percentilesAreWithinOneBucketOfTheExactValue() {
    PhaseHistogram h = new PhaseHistogram();
    Random random = new Random(42);
    long[] values = new long[10_000];
    long sum = 0;
    for (int i = 0; i < values.length; i++) {
      // log-uniform from 10 µs to 10 s
      values[i] = (long) Math.pow(10, 4 + random.nextDouble() * 6);
      sum += values[i];
      h.record(values[i]);
    }
    java.util.Arrays.sort(values);
    PhaseHistogram.Snapshot s = h.snapshot();
    assertThat(s.count()).isEqualTo(values.length);
    assertThat(s.sumNanos()).isEqualTo(sum);
    assertThat(s.maxNanos()).isEqualTo(values[values.length - 1]);
    for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
      long exact = values[(int) Math.ceil(q * values.length) - 1];
      assertThat((double) s.percentileNanos(q))
          .as("p%s", q * 100)
          .isBetween(exact * 0.99, exact * (1 + 1.0 / PhaseHistogram.SUB_BUCKETS) + 1);
    }
    assertThat(s.percentileNanos(1.0)).isEqualTo(s.maxNanos());
  }

  @Test
  void emptyAndNegativeValues() {
    PhaseHistogram h = new PhaseHistogram();
    assertThat(h.snapshot().percentileNanos(0.5)).isZero();
    assertThat(h.snapshot().meanNanos()).isZero();
    h.record(-5);
    assertThat(h.count()).isEqualTo(1);
    assertThat(h.sumNanos()).isZero();
    assertThat(h.snapshot().percentileNanos(0.99)).isZero();
  }

  @Test
  void theWindowWidensBothWaysAndKeepsEveryCount() {
    var h = new PhaseHistogram();
    long[] expected = new long[PhaseHistogram.BUCKETS];
    var random = new java.util.Random(7);
    // A middle value first, then smaller and larger ones: the window grows down and up.
    long[] values = new long[5_000];
    values[0] = 5_000_000;
    for (int i = 1; i < values.length; i++) {
      values[i] = (long) Math.pow(10, 2 + random.nextDouble() * 10); // 100 ns .. 100 s
    }
    values[1] = 0;
    values[2] = Long.MAX_VALUE / 2;
    long sum = 0;
    for (long v : values) {
      h.record(v);
      expected[PhaseHistogram.bucket(v)]++;
      sum += v;
    }
    PhaseHistogram.Snapshot s = h.snapshot();
    assertThat(s.buckets()).containsExactly(expected);
    assertThat(s.count()).isEqualTo(values.length);
    assertThat(s.sumNanos()).isEqualTo(sum);
    assertThat(s.maxNanos()).isEqualTo(Long.MAX_VALUE / 2);
  }
}
