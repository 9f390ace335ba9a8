package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionPhaseTrackerTest {

  /** One recorded request. */
  record Rec(short api, long queue, long transmit, long delivery, long response, long receive) {}

  private final List<Rec> recorded = new ArrayList<>();
  private final PhaseRecorder recorder =
      (api, q, t, d, r, rc) -> recorded.add(new Rec(api, q, t, d, r, rc));

  @Test
  void saysWhereTheOldestUndeliveredSendAndTheLastSendEndInTheAckedByteCount() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    assertThat(tracker.awaitingDeliveryEnd()).isEqualTo(Long.MIN_VALUE);
    assertThat(tracker.sentStreamOffset()).as("the SYN").isEqualTo(1);
    tracker.requestCreated(1, (short) 0, true, 1_000);
    tracker.sendCompleted(100, 1_100);
    tracker.requestCreated(2, (short) 0, true, 1_200);
    tracker.sendCompleted(50, 1_300);

    assertThat(tracker.awaitingDeliveryEnd()).isEqualTo(101);
    assertThat(tracker.sentStreamOffset()).isEqualTo(151);
    tracker.tcpSample(101, 1_400);
    assertThat(tracker.awaitingDeliveryEnd()).as("the second send").isEqualTo(151);
    tracker.tcpSample(151, 1_500);
    assertThat(tracker.awaitingDeliveryEnd()).as("all delivered").isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void splitsOneRequestIntoFivePhasesWhenTheKernelReportsTheAck() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(7, (short) 0, true, 1_000);
    tracker.bytesWritten(1_000, 1_300); // queue 300
    tracker.bytesWritten(3_000, 1_500);
    tracker.sendCompleted(4_000, 2_000); // transmit 700
    assertThat(tracker.awaitingDelivery()).isTrue();
    tracker.tcpSample(4_000, 2_500); // the SYN counts: one byte short, not delivered
    assertThat(tracker.awaitingDelivery()).isTrue();
    tracker.tcpSample(4_001, 3_000); // delivery 1000
    assertThat(tracker.awaitingDelivery()).isFalse();
    tracker.responseStarted(7_000); // response 4000
    long latency = tracker.responseCompleted(7, 7_600); // receive 600

    assertThat(latency).isEqualTo(6_600);
    assertThat(recorded).containsExactly(new Rec((short) 0, 300, 700, 1_000, 4_000, 600));
    assertThat(tracker.inFlight()).isZero();
    assertThat(tracker.unmatchedEvents()).isZero();
  }

  @Test
  void theWireOffsetCountsEveryWriteAndStartsOverWithTheConnection() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    assertThat(tracker.wireOffset()).as("the SYN").isEqualTo(ConnectionPhaseTracker.SYN_OCTETS);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.bytesWritten(300, 10);
    assertThat(tracker.wireOffset()).as("part of a send").isEqualTo(301);
    assertThat(tracker.sentStreamOffset()).as("no send completed yet").isEqualTo(1);
    tracker.bytesWritten(700, 20);
    tracker.sendCompleted(1_000, 20);
    assertThat(tracker.wireOffset()).isEqualTo(tracker.sentStreamOffset()).isEqualTo(1_001);
    tracker.bytesWritten(5, 30); // no request to time: still on the wire
    assertThat(tracker.wireOffset()).isEqualTo(1_006);

    tracker.reset();
    assertThat(tracker.wireOffset()).isEqualTo(ConnectionPhaseTracker.SYN_OCTETS);
  }

  @Test
  void mergesDeliveryIntoResponseWithoutTcpSamples() {
    var tracker = new ConnectionPhaseTracker(recorder, false);
    tracker.requestCreated(1, (short) 3, true, 0);
    tracker.bytesWritten(100, 10);
    tracker.sendCompleted(100, 20);
    assertThat(tracker.awaitingDelivery()).isFalse();
    tracker.responseStarted(520);
    tracker.responseCompleted(1, 530);

    assertThat(recorded).containsExactly(new Rec((short) 3, 10, 10, -1, 500, 10));
  }

  @Test
  void mergesDeliveryWhenNoSampleSawTheAckBeforeTheResponse() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.sendCompleted(100, 10);
    tracker.tcpSample(50, 20);
    tracker.responseStarted(400);
    assertThat(tracker.awaitingDelivery()).isFalse();
    tracker.responseCompleted(-1, 410);

    assertThat(recorded).containsExactly(new Rec((short) 0, 10, 0, -1, 390, 10));
  }

  @Test
  void aHoldTheSamplerSawEndIsPlacedBetweenItsLastLookAndTheResponse() {
    // Held 3 s before the broker had it; a throttled sampler's last look, 4 ms before the
    // response, still found it unacknowledged: the acknowledgement came in those 4 ms.
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.sendCompleted(100, 1_000_000);
    tracker.tcpSample(1, 6_000_000);
    tracker.tcpSample(1, 3_001_000_000L); // no change: a later bound
    tracker.responseStarted(3_005_000_000L);
    tracker.responseCompleted(1, 3_005_100_000L);

    assertThat(recorded)
        .containsExactly(new Rec((short) 0, 1_000_000, 0, 3_002_000_000L, 2_000_000, 100_000));
  }

  @Test
  void aLastLookLongBeforeTheResponseLeavesDeliveryMerged() {
    // A quarter of the wait before the look is as far as the response may follow it.
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.sendCompleted(100, 0);
    tracker.tcpSample(1, 8_000);
    tracker.responseStarted(10_001);
    tracker.responseCompleted(1, 10_001);
    tracker.requestCreated(2, (short) 0, true, 20_000);
    tracker.sendCompleted(100, 20_000);
    tracker.tcpSample(101, 28_000);
    tracker.responseStarted(30_000);
    tracker.responseCompleted(2, 30_000);

    assertThat(recorded)
        .containsExactly(
            new Rec((short) 0, 0, 0, -1, 10_001, 0), new Rec((short) 0, 0, 0, 9_000, 1_000, 0));
  }

  @Test
  void aLookBeforeTheSendOrAfterTheResponseStartedBoundsNothing() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.tcpSample(1, 5_000); // before the send completed
    tracker.requestCreated(1, (short) 0, true, 6_000);
    tracker.sendCompleted(100, 6_000);
    tracker.responseStarted(6_100);
    tracker.tcpSample(1, 6_200); // the response has started: too late
    tracker.responseCompleted(1, 6_300);

    assertThat(recorded).containsExactly(new Rec((short) 0, 0, 0, -1, 100, 200));
  }

  @Test
  void theBoundTakenWhenTheResponseStartedStandsAfterLaterLooks() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.sendCompleted(100, 0);
    tracker.tcpSample(1, 100_000);
    tracker.responseStarted(100_400);
    tracker.tcpSample(101, 100_500); // seen acknowledged only after the response started
    tracker.responseCompleted(1, 100_600);

    assertThat(recorded).containsExactly(new Rec((short) 0, 0, 0, 100_200, 200, 200));
  }

  @Test
  void matchesPipelinedRequestsInOrderAndDeliveryByStreamOffset() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.requestCreated(2, (short) 1, true, 5);
    tracker.requestCreated(3, (short) 0, true, 10);
    tracker.sendCompleted(100, 20); // #1 ends at byte 100
    tracker.sendCompleted(50, 30); // #2 ends at 150
    tracker.sendCompleted(10, 40); // #3 ends at 160
    tracker.tcpSample(151, 60); // #1 and #2 delivered (+1: the SYN)
    assertThat(tracker.awaitingDelivery()).isTrue();
    tracker.tcpSample(161, 70);
    tracker.responseStarted(100);
    tracker.responseCompleted(1, 110);
    tracker.responseStarted(120);
    tracker.responseCompleted(2, 125);
    tracker.responseStarted(130);
    tracker.responseCompleted(3, 131);

    assertThat(recorded)
        .containsExactly(
            new Rec((short) 0, 20, 0, 40, 40, 10),
            new Rec((short) 1, 25, 0, 30, 60, 5),
            new Rec((short) 0, 30, 0, 30, 60, 1));
  }

  @Test
  void requestsWithoutResponseFinishAtTheirSendAndAreSkippedByResponses() {
    var tracker = new ConnectionPhaseTracker(recorder, false);
    tracker.requestCreated(1, (short) 0, false, 0); // acks=0
    tracker.requestCreated(2, (short) 3, true, 0);
    tracker.sendCompleted(10, 5);
    tracker.sendCompleted(10, 8);
    tracker.responseStarted(20);
    tracker.responseCompleted(-1, 21);

    assertThat(recorded)
        .containsExactly(new Rec((short) 0, 5, 0, -1, -1, -1), new Rec((short) 3, 8, 0, -1, 12, 1));
    assertThat(tracker.inFlight()).isZero();
  }

  @Test
  void aResponseForALaterCorrelationIdDropsTheOnesBefore() {
    var tracker = new ConnectionPhaseTracker(recorder, false);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.requestCreated(2, (short) 0, true, 0);
    tracker.sendCompleted(10, 1);
    tracker.sendCompleted(10, 2);
    assertThat(tracker.responseCompleted(2, 10)).isEqualTo(10);
    assertThat(tracker.droppedRequests()).isEqualTo(1);
    assertThat(tracker.responseCompleted(99, 11)).isEqualTo(-1);
    assertThat(tracker.unmatchedEvents()).isEqualTo(1);
    assertThat(recorded).hasSize(1);
    assertThat(tracker.inFlight()).isZero();
  }

  @Test
  void eventsWithoutARequestAreCountedNotFatal() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.bytesWritten(10, 1);
    tracker.sendCompleted(10, 2);
    tracker.responseStarted(3);
    assertThat(tracker.responseCompleted(-1, 4)).isEqualTo(-1);
    assertThat(tracker.unmatchedEvents()).isEqualTo(4);
    assertThat(recorded).isEmpty();
  }

  @Test
  void resetForgetsInFlightRequestsAndRestartsTheByteCount() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.sendCompleted(1_000, 1);
    tracker.reset();
    assertThat(tracker.droppedRequests()).isEqualTo(1);
    tracker.requestCreated(2, (short) 0, true, 10);
    tracker.sendCompleted(100, 11);
    tracker.tcpSample(101, 12); // new connection: SYN + 100, not 1100
    tracker.responseStarted(20);
    tracker.responseCompleted(2, 21);
    assertThat(recorded).containsExactly(new Rec((short) 0, 1, 0, 1, 8, 1));
  }

  @Test
  void moreThanCapacityInFlightStartsOverInsteadOfMismatching() {
    var tracker = new ConnectionPhaseTracker(recorder, false);
    for (int i = 0; i < ConnectionPhaseTracker.CAPACITY; i++) {
      tracker.requestCreated(i, (short) 0, true, i);
    }
    tracker.requestCreated(1000, (short) 9, true, 500);
    assertThat(tracker.droppedRequests()).isEqualTo(ConnectionPhaseTracker.CAPACITY);
    tracker.sendCompleted(1, 501);
    tracker.responseCompleted(1000, 510);
    assertThat(recorded).containsExactly(new Rec((short) 9, 1, 0, -1, 9, 0));
  }

  @Test
  void deliveryTurningUnobservableMergesFromThenOn() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.sendCompleted(10, 1);
    tracker.deliveryUnobservable();
    assertThat(tracker.awaitingDelivery()).isFalse();
    tracker.responseCompleted(1, 5);
    assertThat(recorded.get(0).delivery()).isEqualTo(-1);
  }

  @Test
  void overTlsASendEndsWhereItsRecordsEndOnTheWire() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.requestCreated(1, (short) 0, true, 1_000);
    tracker.recordBytesWritten(1_029); // the records of the first write's 1,000 bytes
    tracker.plaintextWritten(1_200); // queue 200
    tracker.recordBytesWritten(529);
    tracker.plaintextWritten(1_300);
    tracker.sendCompleted(1_500, 1_400); // transmit 200
    assertThat(tracker.awaitingDeliveryEnd()).as("SYN + the records").isEqualTo(1_559);
    assertThat(tracker.wireOffset()).isEqualTo(1_559);
    tracker.tcpSample(1_501, 1_500);
    assertThat(tracker.awaitingDelivery()).as("the request's size is not where it ends").isTrue();
    tracker.tcpSample(1_559, 1_700); // delivery 300
    tracker.responseCompleted(1, 2_000); // response 300
    assertThat(recorded).containsExactly(new Rec((short) 0, 200, 200, 300, 300, 0));

    tracker.reset();
    tracker.requestCreated(2, (short) 0, true, 3_000);
    tracker.bytesWritten(100, 3_100);
    tracker.sendCompleted(100, 3_100);
    assertThat(tracker.awaitingDeliveryEnd()).as("a new connection counts afresh").isEqualTo(101);
  }

  @Test
  void theNextConnectionOfTheNodeHasItsDeliveryObservedAgain() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    tracker.deliveryUnobservable();
    tracker.reset();
    tracker.requestCreated(1, (short) 0, true, 0);
    tracker.sendCompleted(10, 1);
    assertThat(tracker.awaitingDelivery()).as("a new connection, readable").isTrue();
    tracker.tcpSample(11, 3);
    tracker.responseCompleted(1, 5);
    assertThat(recorded).containsExactly(new Rec((short) 0, 1, 0, 2, 2, 0));

    var never = new ConnectionPhaseTracker(recorder, false);
    never.reset();
    never.requestCreated(2, (short) 0, true, 0);
    never.sendCompleted(10, 1);
    assertThat(never.awaitingDelivery()).as("made without delivery: stays without").isFalse();
  }

  @Test
  void survivesManyRequestsWrappingTheRing() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    long t = 0;
    for (int i = 0; i < 10 * ConnectionPhaseTracker.CAPACITY; i++) {
      tracker.requestCreated(i, (short) 1, true, t);
      tracker.requestCreated(i + 100_000, (short) 1, true, t);
      tracker.sendCompleted(100, t + 1);
      tracker.sendCompleted(100, t + 2);
      tracker.tcpSample(200L * (i + 1) + 1, t + 3);
      tracker.responseStarted(t + 4);
      tracker.responseCompleted(i, t + 5);
      tracker.responseStarted(t + 6);
      tracker.responseCompleted(i + 100_000, t + 7);
      t += 10;
    }
    assertThat(recorded).hasSize(20 * ConnectionPhaseTracker.CAPACITY);
    assertThat(recorded).allSatisfy(r -> assertThat(r.delivery()).isBetween(1L, 2L));
    assertThat(tracker.unmatchedEvents()).isZero();
    assertThat(tracker.droppedRequests()).isZero();
  }

  @Test
  void growsWhenMoreRequestsAreInFlightAndKeepsMatchingAcrossTheWrap() {
    var tracker = new ConnectionPhaseTracker(recorder, true);
    assertThat(tracker.capacity()).isEqualTo(8);
    long t = 0;
    // Five in flight first, three answered: the ring's head sits mid-array when it grows.
    for (int i = 0; i < 5; i++) {
      tracker.requestCreated(i, (short) 0, true, t++);
      tracker.sendCompleted(10, t++);
    }
    for (int i = 0; i < 3; i++) {
      tracker.responseStarted(t++);
      tracker.responseCompleted(i, t++);
    }
    // Then 20 more, some sent: 22 in flight, so 8 → 16 → 32 slots.
    for (int i = 5; i < 25; i++) {
      tracker.requestCreated(i, (short) 1, true, t++);
      if (i < 15) {
        tracker.sendCompleted(10, t++);
      }
    }
    assertThat(tracker.capacity()).isEqualTo(32);
    assertThat(tracker.inFlight()).isEqualTo(22);
    tracker.tcpSample(1 + 15 * 10, t++); // every sent one delivered
    for (int i = 15; i < 25; i++) {
      tracker.sendCompleted(10, t++);
    }
    tracker.tcpSample(1 + 25 * 10, t++);
    for (int i = 3; i < 25; i++) {
      tracker.responseStarted(t++);
      assertThat(tracker.responseCompleted(i, t++)).isPositive();
    }
    assertThat(recorded).hasSize(25);
    assertThat(recorded.subList(3, 25)).allSatisfy(r -> assertThat(r.delivery()).isPositive());
    assertThat(recorded.subList(5, 25)).allSatisfy(r -> assertThat(r.api()).isEqualTo((short) 1));
    assertThat(tracker.unmatchedEvents()).isZero();
    assertThat(tracker.droppedRequests()).isZero();
    assertThat(tracker.inFlight()).isZero();
  }
}
