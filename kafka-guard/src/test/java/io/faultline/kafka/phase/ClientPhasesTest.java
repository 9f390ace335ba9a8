package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ClientPhasesTest {

  private static final long MS = 1_000_000;

  @Test
  void keepsOneTrackerPerNodeAndFindsTheTransmitBoundOne() {
    var registry = new SimpleMeterRegistry();
    var phases =
        new ClientPhases(
            new PhaseMeters(registry, KafkaMeterTags.DEFAULT),
            ClientType.PRODUCER,
            "p1",
            true,
            new TransmitBoundDetector(Duration.ofMillis(500), 3));
    long t = 0;
    int correlation = 0;
    long acked1 = ConnectionPhaseTracker.SYN_OCTETS;
    long acked2 = ConnectionPhaseTracker.SYN_OCTETS;
    for (int i = 0; i < 5; i++) {
      // node 1: healthy, 5 ms per request, 1 ms before the broker
      int c1 = correlation++;
      phases.requestCreated("1", c1, (short) 0, true, t);
      phases.sendCompleted("1", 1_000, t + MS);
      acked1 += 1_000;
      assertThat(phases.awaitingDelivery("1")).isTrue();
      phases.tcpSample("1", acked1, t + MS);
      phases.responseStarted("1", t + 4 * MS);
      assertThat(phases.responseCompleted("1", c1, t + 5 * MS)).isEqualTo(5 * MS);
      // node 2: the LINE Kafka incident, two seconds to get the batch through a tiny window
      int c2 = correlation++;
      phases.requestCreated("2", c2, (short) 0, true, t);
      phases.bytesWritten("2", 512, t + MS);
      phases.sendCompleted("2", 1_000_000, t + 1_800 * MS);
      acked2 += 1_000_000;
      phases.tcpSample("2", acked2, t + 2_000 * MS);
      phases.responseStarted("2", t + 2_003 * MS);
      phases.responseCompleted("2", c2, t + 2_004 * MS);
      t += 10_000 * MS;
    }

    assertThat(phases.transmitBoundFindings())
        .extracting(Finding::subject)
        .containsExactly("client p1 → node 2");
    assertThat(phases.transmitBoundFindings()).as("nothing new in this interval").isEmpty();
    assertThat(
            registry
                .get("faultline.kafka.request.phase")
                .tags("node.id", "2", "phase", "transmit")
                .functionTimer()
                .count())
        .isEqualTo(5);
    PhaseHistogram.Snapshot transmit =
        phases.distributions().get("2").get("produce").get(Phase.TRANSMIT);
    assertThat(transmit.count()).isEqualTo(5);
    assertThat(transmit.percentileNanos(0.99))
        .as("p99 of five 1 799 ms transmits, within a bucket")
        .isBetween(1_799 * MS, 1_799 * MS * 9 / 8);

    phases.requestCreated("2", 99, (short) 0, true, t);
    phases.connectionClosed("2");
    assertThat(phases.tracker("2").inFlight()).isZero();
    phases.close();
    assertThat(
            registry
                .get("faultline.kafka.request.phase")
                .tags("node.id", "2", "phase", "transmit")
                .functionTimer()
                .count())
        .as("a closed client's requests stay counted")
        .isEqualTo(5);
  }

  @Test
  void withoutARegistryOnlyTheSumsAreKept() {
    var phases =
        new ClientPhases(
            null, ClientType.ADMIN, "a", false, new TransmitBoundDetector(Duration.ofMillis(1), 1));
    phases.requestCreated("1", 1, (short) 3, true, 0);
    phases.sendCompleted("1", 10, 1);
    assertThat(phases.awaitingDelivery("1")).isFalse();
    assertThat(phases.responseCompleted("1", 1, 2)).isEqualTo(2);
    assertThat(phases.awaitingDelivery("unknown")).isFalse();
    assertThat(phases.distributions().get("1").get("metadata").get(Phase.QUEUE).count())
        .as("percentiles are kept without a registry too")
        .isEqualTo(1);
  }
}
