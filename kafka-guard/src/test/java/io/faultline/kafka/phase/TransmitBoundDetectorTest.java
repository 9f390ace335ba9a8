package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransmitBoundDetectorTest {

  private static final long MS = 1_000_000;
  private final TransmitBoundDetector detector =
      new TransmitBoundDetector(Duration.ofMillis(500), 5);

  @Test
  void flagsTheOneNodeWhoseTimeIsBeforeTheBroker() {
    // The LINE Kafka incident: node 2 at 16 s per request, nearly all of it sending; the others
    // fine.
    var findings =
        detector.evaluate(
            "p1",
            Map.of(
                "1", new NodePhaseStats.Snapshot(100, 100 * 2 * MS, 100 * 10 * MS),
                "2", new NodePhaseStats.Snapshot(10, 10 * 15_500 * MS, 10 * 16_000 * MS),
                "3", new NodePhaseStats.Snapshot(100, 100 * 3 * MS, 100 * 12 * MS)));

    assertThat(findings).extracting(Finding::subject).containsExactly("client p1 → node 2");
    assertThat(findings.get(0).evidence())
        .containsEntry("mean_pre_broker_ms", 15_500.0)
        .containsEntry("mean_latency_ms", 16_000.0);
  }

  @Test
  void aNodeSlowInTheBrokerIsNotTransmitBound() {
    var findings =
        detector.evaluate(
            "p1",
            Map.of(
                "1", new NodePhaseStats.Snapshot(10, 10 * 600 * MS, 10 * 5_000 * MS),
                "2", new NodePhaseStats.Snapshot(10, 10 * MS, 10 * 20 * MS)));
    assertThat(findings).isEmpty();
  }

  @Test
  void everyNodeSlowMeansTheClientNotOneConnection() {
    var slow = new NodePhaseStats.Snapshot(10, 10 * 900 * MS, 10 * 1_000 * MS);
    assertThat(detector.evaluate("p1", Map.of("1", slow, "2", slow))).isEmpty();
  }

  @Test
  void tooFewRequestsSayNothing() {
    var findings =
        detector.evaluate(
            "p1",
            Map.of(
                "1", new NodePhaseStats.Snapshot(2, 2 * 900 * MS, 2 * 1_000 * MS),
                "2", new NodePhaseStats.Snapshot(10, 10 * MS, 10 * 20 * MS)));
    assertThat(findings).isEqualTo(List.of());
  }

  @Test
  void snapshotsSubtractToAnInterval() {
    var stats = new NodePhaseStats();
    stats.record((short) 0, 1, 2, 3, 4, 5);
    var first = stats.snapshot();
    stats.record((short) 0, 10, 20, -1, 40, 50);
    stats.record((short) 0, 10, 20, -1, -1, -1); // no response: not counted
    assertThat(stats.snapshot().minus(first)).isEqualTo(new NodePhaseStats.Snapshot(1, 30, 120));
  }
}
