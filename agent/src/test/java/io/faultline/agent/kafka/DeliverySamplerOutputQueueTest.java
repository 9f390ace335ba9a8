package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.phase.ConnectionPhaseTracker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where the reader answers {@code SIOCOUTQ}, the sampler reads it instead of TCP_INFO: the
 * acknowledged offset is the connection's count of bytes written less the bytes unacknowledged. An
 * answer lower than one before (a write landed between the two reads) is not recorded, and a failed
 * read takes the probe out as a failed TCP_INFO read does.
 */
class DeliverySamplerOutputQueueTest {

  private final AckingTcpInfoReader reader = new AckingTcpInfoReader();
  private final DeliverySampler sampler = new DeliverySampler(reader, 2000, 5_000_000L);
  private final ConnectionPhaseTracker tracker = new ConnectionPhaseTracker(null, true);

  DeliverySamplerOutputQueueTest() {
    reader.readsQueue = true;
  }

  @Test
  void theAcknowledgedOffsetIsTheBytesWrittenLessThoseUnacknowledged() throws Exception {
    tracker.bytesWritten(1_000, 1);
    reader.unacknowledged = 400;
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7, tracker, true);
    sampler.enlist(probe);
    sampler.watch(probe, System.nanoTime(), 1_001, 1_001);

    assertThat(awaitChanges(probe)).as("SYN + 1000 written, 400 unacknowledged").contains(601L);
    reader.unacknowledged = 700; // lower than before: a write the count had not seen yet
    Thread.sleep(20);
    reader.unacknowledged = 0;
    List<Long> later = awaitOffset(probe, 1_001L);

    assertThat(later)
        .as("never below an earlier answer")
        .allSatisfy(a -> assertThat(a).isGreaterThanOrEqualTo(601));
    assertThat(later).last().isEqualTo(1_001L);
    assertThat(reader.reads).as("TCP_INFO reads").hasValue(0);
    assertThat(reader.queueReads.get()).isPositive();
    sampler.stop(probe);
  }

  @Test
  void aCountThatStartedLatePlacesTheRequestsAsOneFromTheStartWould() throws Exception {
    // 5,000 bytes went out before the count began (a SASL exchange, an adopted connection's past),
    // then 1,000 counted ones. The kernel's queue holds what of all 6,000 is unacknowledged.
    tracker.bytesWritten(1_000, 1);
    reader.unacknowledged = 3_000; // 2,000 of the uncounted ones still on their way
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7, tracker, false);
    sampler.enlist(probe);
    sampler.watch(probe, System.nanoTime(), 1_001, 1_001);

    assertThat(awaitChanges(probe)).as("none of the counted bytes yet").containsExactly(0L);
    reader.unacknowledged = 400;
    assertThat(awaitOffset(probe, 601L))
        .as("600 of the counted ones")
        .contains(601L)
        .isSubsetOf(0L, 601L);
    reader.unacknowledged = 0;
    assertThat(awaitOffset(probe, 1_001L))
        .as("all of them")
        .contains(1_001L)
        .isSubsetOf(601L, 1_001L);
    assertThat(reader.reads).as("TCP_INFO reads").hasValue(0);
    sampler.stop(probe);
  }

  @Test
  void aCountThatStartedLateIsNotMatchedToTcpInfosTotal() throws Exception {
    reader.readsQueue = false; // no SIOCOUTQ here: only TCP_INFO's total, from the first byte
    reader.acked = 6_001;
    tracker.bytesWritten(1_000, 1);
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7, tracker, false);
    sampler.enlist(probe);
    sampler.watch(probe, System.nanoTime(), 1_001, 1_001);

    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!probe.failed() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertThat(probe.failed()).as("delivery merged, not matched early").isTrue();
    assertThat(probe.hasLooks()).isFalse();
    assertThat(reader.reads).hasValue(0);
  }

  @Test
  void aProbeWithoutACountOfTheBytesWrittenReadsTcpInfo() throws Exception {
    reader.acked = 1_001;
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7);
    sampler.enlist(probe);
    sampler.watch(probe, System.nanoTime(), 1_001, 1_001);

    assertThat(awaitChanges(probe)).containsExactly(1_001L);
    assertThat(reader.queueReads).hasValue(0);
    sampler.stop(probe);
  }

  @Test
  void aFailedReadTakesTheProbeOut() throws Exception {
    tracker.bytesWritten(1_000, 1);
    reader.unacknowledged = -1;
    DeliverySampler.Probe probe = new DeliverySampler.Probe(7, tracker, true);
    sampler.enlist(probe);
    sampler.watch(probe, System.nanoTime(), 1_001, 1_001);

    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!probe.failed() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    assertThat(probe.failed()).isTrue();
  }

  /**
   * The acknowledged offsets recorded from now until one is {@code expected} (5 s at most), each
   * once.
   */
  private static List<Long> awaitOffset(DeliverySampler.Probe probe, long expected)
      throws Exception {
    long deadline = System.nanoTime() + 5_000_000_000L;
    List<Long> acked = new ArrayList<>();
    while (!acked.contains(expected) && System.nanoTime() < deadline) {
      for (long a : awaitChanges(probe)) {
        if (acked.isEmpty() || acked.get(acked.size() - 1) != a) {
          acked.add(a);
        }
      }
    }
    return acked;
  }

  /**
   * The acknowledged offsets recorded since the last drain, once there are some (5 s at most), each
   * once: a later look that found the same offset is drained after it as a bound.
   */
  private static List<Long> awaitChanges(DeliverySampler.Probe probe) throws Exception {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!probe.hasLooks() && System.nanoTime() < deadline) {
      Thread.sleep(1);
    }
    List<Long> acked = new ArrayList<>();
    probe.drain(
        (bytesAcked, nanos) -> {
          if (acked.isEmpty() || acked.get(acked.size() - 1) != bytesAcked) {
            acked.add(bytesAcked);
          }
        });
    return acked;
  }
}
