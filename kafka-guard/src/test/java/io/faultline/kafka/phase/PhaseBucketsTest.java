package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PhaseBucketsTest {

  @Test
  void eachBoundIsReadAtTheNearestEdgeOfTheLogLinearBuckets() {
    for (Duration bound : PhaseBuckets.DEFAULT) {
      long nanos = bound.toNanos();
      int last = PhaseBuckets.nearestEdge(nanos);
      long edge = PhaseHistogram.upperBound(last);
      assertThat(Math.abs(edge - nanos) / (double) nanos)
          .as("edge %d for %s", edge, bound)
          .isLessThanOrEqualTo(1 / 16.0);
    }
    // An exact edge is its own: 2^20 ns ends bucket 1 + 10 * 8 - 1.
    assertThat(PhaseHistogram.upperBound(PhaseBuckets.nearestEdge(1L << 20))).isEqualTo(1L << 20);
  }

  @Test
  void cumulativeCountsUnderEachBoundFromTheTimersHistograms() {
    PhaseBuckets buckets =
        PhaseBuckets.of(
            List.of(Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofSeconds(1)));
    PhaseMeters meters =
        new PhaseMeters(new SimpleMeterRegistry(), KafkaMeterTags.DEFAULT, buckets);
    MeteredPhaseRecorder a = new MeteredPhaseRecorder(meters, ClientType.PRODUCER, "a", "1", null);
    MeteredPhaseRecorder b = new MeteredPhaseRecorder(meters, ClientType.PRODUCER, "b", "1", null);
    // Queue phase: 200 µs, 5 ms, 500 ms, 3 s; no response, so transmit and queue only.
    a.record((short) 0, 200_000, 0, -1, -1, 0);
    a.record((short) 0, 5_000_000, 0, -1, -1, 0);
    b.record((short) 0, 500_000_000, 0, -1, -1, 0);
    b.record((short) 0, 3_000_000_000L, 0, -1, -1, 0);

    PhaseMeters.Totals queue = queueTotals(meters, buckets);
    assertThat(queue.cumulative()).containsExactly(1, 2, 3);
    assertThat(queue.count()).isEqualTo(4);
    assertThat(queue.sumSeconds()).isEqualTo(3.505_2, org.assertj.core.data.Offset.offset(1e-9));

    b.close();
    a.record((short) 0, 20_000_000, 0, -1, -1, 0);
    PhaseMeters.Totals after = queueTotals(meters, buckets);
    assertThat(after.cumulative())
        .as("a closed connection's counts stay in every bucket")
        .containsExactly(1, 2, 4);
    assertThat(after.count()).isEqualTo(5);
  }

  @Test
  void refusesBoundsThatAreNotAscending() {
    assertThatThrownBy(() -> PhaseBuckets.of(List.of(Duration.ofMillis(10), Duration.ofMillis(10))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PhaseBuckets.of(List.of(Duration.ZERO)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static PhaseMeters.Totals queueTotals(PhaseMeters meters, PhaseBuckets buckets) {
    return meters.series().stream()
        .filter(
            s ->
                "queue"
                    .equals(
                        s.tags().stream()
                            .filter(t -> t.getKey().equals("phase"))
                            .findFirst()
                            .map(t -> t.getValue())
                            .orElse(null)))
        .findFirst()
        .orElseThrow()
        .timer()
        .totals(buckets);
  }
}
