package io.faultline.jooq.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.jooq.JooqMeters;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The per-transaction summaries carry buckets a backend can add up across instances. */
class GuardMetricsHistogramTest {

  @Test
  void savepointsPerTransactionAndDepthHaveTheirBuckets() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    GuardMetrics metrics = new GuardMetrics();
    metrics.bindTo(registry);
    for (int savepoints : new int[] {0, 0, 3, 70}) {
      metrics.recordSavepointsPerTransaction(savepoints);
    }
    metrics.recordDepth(1);
    metrics.recordDepth(2);

    DistributionSummary perTransaction =
        registry.get(JooqMeters.SAVEPOINTS_PER_TRANSACTION.name()).summary();
    CountAtBucket[] buckets = perTransaction.takeSnapshot().histogramCounts();
    assertThat(Arrays.stream(buckets).mapToDouble(CountAtBucket::bucket).toArray())
        .containsExactly(JooqMeters.savepointsPerTransactionBuckets());
    // Cumulative: two with none, the one with 3 under 4, the one with 70 only under 128.
    assertThat(Arrays.stream(buckets).mapToDouble(CountAtBucket::count).toArray())
        .containsExactly(2, 2, 2, 3, 3, 3, 3, 3, 4);
    DistributionSummary depth = registry.get(JooqMeters.NESTING_DEPTH.name()).summary();
    assertThat(
            Arrays.stream(depth.takeSnapshot().histogramCounts()).mapToDouble(CountAtBucket::count))
        .containsExactly(1.0, 2.0, 2.0, 2.0, 2.0);
  }
}
