package io.faultline.kafka.reconnect;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.ClientType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ReconnectGateTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;

  private final List<String> outcomes = new ArrayList<>();
  private final List<Long> delays = new ArrayList<>();
  private final GateListener listener =
      new GateListener() {
        @Override
        public void attempt(String nodeId, Outcome outcome) {
          outcomes.add(nodeId + ":" + outcome.tagValue());
        }

        @Override
        public void delayed(String nodeId, long delayNanos) {
          delays.add(delayNanos);
        }
      };

  private static StaggerSettings window(Duration window) {
    return StaggerSettings.of(true, window, Duration.ZERO, 0.25, ClientType.PRODUCER, Map.of());
  }

  /** A client connected to nodes 1 and 2 that then loses node 2. */
  private ReconnectGate connectedThenLost(StaggerSettings settings, double u, ConnectAdmission a) {
    ReconnectGate gate = new ReconnectGate(settings, a, () -> u, listener);
    assertThat(gate.admit("1", 0)).isZero();
    gate.connected("1", 1);
    assertThat(gate.admit("2", 2)).isZero();
    gate.connected("2", 3);
    gate.disconnected("2", 10 * SECOND);
    outcomes.clear();
    return gate;
  }

  @Test
  void aLostNodeWaitsItsDrawnDelayFromTheFirstWant() {
    ReconnectGate gate = connectedThenLost(window(Duration.ofSeconds(3)), 0.5, null);
    long want = 20 * SECOND; // long after the loss: the delay counts from the want
    assertThat(gate.admit("2", want)).isEqualTo(1_500 * MS);
    assertThat(gate.admit("2", want + 1_000 * MS)).isEqualTo(500 * MS);
    assertThat(gate.admit("2", want + 1_500 * MS)).isZero();
    assertThat(outcomes).containsExactly("2:deferred", "2:after_delay");
    assertThat(delays).containsExactly(1_500 * MS);
    assertThat(gate.connectingNodes()).isEqualTo(1);
  }

  @Test
  void delaysAreUniformWithinTheWindow() {
    Random random = new Random(42);
    long window = 3 * SECOND;
    long min = Long.MAX_VALUE;
    long max = 0;
    int[] buckets = new int[10];
    int n = 5_000;
    for (int i = 0; i < n; i++) {
      double u = random.nextDouble();
      ReconnectGate gate = connectedThenLost(window(Duration.ofSeconds(3)), u, null);
      long wait = gate.admit("2", 11 * SECOND);
      assertThat(wait).isBetween(0L, window - 1);
      min = Math.min(min, wait);
      max = Math.max(max, wait);
      buckets[(int) (wait * 10 / window)]++;
    }
    assertThat(min).isLessThan(10 * MS);
    assertThat(max).isGreaterThan(window - 10 * MS);
    for (int count : buckets) {
      assertThat(count).isBetween(n / 10 - 100, n / 10 + 100); // ±20 % of 500 per bucket
    }
  }

  @Test
  void aClientWithNoConnectionGetsOneAtOnce() {
    ReconnectGate gate =
        new ReconnectGate(window(Duration.ofSeconds(3)), null, () -> 0.99, listener);
    assertThat(gate.admit("-1", 0)).isZero();
    gate.connected("-1", 1);
    gate.disconnected("-1", 2);
    // Everything lost: the starvation guard lets one through immediately...
    assertThat(gate.admit("1", 3)).isZero();
    // ...and only one: a second lost node, while the first is connecting, is staggered.
    assertThat(gate.admit("-1", 4)).isPositive();
    assertThat(outcomes).containsExactly("-1:first", "1:first", "-1:deferred");
  }

  @Test
  void theGuardIgnoresTheProcessWideLimit() {
    ConnectAdmission empty = new ConnectAdmission(1);
    assertThat(empty.tryAcquire(0)).isZero(); // take the only token
    ReconnectGate gate = new ReconnectGate(window(Duration.ofSeconds(3)), empty, () -> 0, listener);
    assertThat(gate.admit("1", 1)).isZero();
    assertThat(gate.admit("2", 2)).isPositive(); // a new node while one connects: throttled
    assertThat(outcomes).containsExactly("1:first", "2:throttled");
  }

  @Test
  void theWindowIsCappedToAFractionOfTheShortestTimeout() {
    StaggerSettings producer =
        StaggerSettings.of(
            true,
            Duration.ofSeconds(60),
            Duration.ofSeconds(60),
            0.25,
            ClientType.PRODUCER,
            Map.of("request.timeout.ms", "40000", "delivery.timeout.ms", 20_000));
    assertThat(producer.windowNanos()).isEqualTo(5 * SECOND);
    assertThat(producer.startupJitterNanos()).isEqualTo(5 * SECOND);

    StaggerSettings consumer =
        StaggerSettings.of(
            true,
            Duration.ofSeconds(60),
            Duration.ZERO,
            0.25,
            ClientType.CONSUMER,
            Map.of("max.poll.interval.ms", 8_000));
    assertThat(consumer.windowNanos()).isEqualTo(2 * SECOND);

    StaggerSettings defaults = window(Duration.ofSeconds(3));
    assertThat(defaults.windowNanos()).isEqualTo(3 * SECOND);
    assertThat(defaults.capNanos()).isEqualTo(7_500 * MS); // 25 % of request.timeout.ms 30 s

    StaggerSettings nonsense =
        StaggerSettings.of(
            true,
            Duration.ofSeconds(3),
            Duration.ZERO,
            7,
            ClientType.ADMIN,
            Map.of("request.timeout.ms", "x"));
    assertThat(nonsense.capNanos()).isEqualTo(7_500 * MS);
  }

  @Test
  void aStaleDrawIsDrawnAgain() {
    double[] next = {0.9};
    ReconnectGate gate =
        new ReconnectGate(window(Duration.ofSeconds(3)), null, () -> next[0], listener);
    gate.admit("1", 0);
    gate.connected("1", 0);
    gate.admit("2", 0);
    gate.connected("2", 0);
    gate.disconnected("2", SECOND);
    assertThat(gate.admit("2", 2 * SECOND)).isEqualTo(2_700 * MS);
    // The client stops wanting node 2 (its partitions moved); a minute later, after a leader
    // election, it wants it again: a fresh delay from that moment, not the long-expired one.
    next[0] = 0.5;
    assertThat(gate.admit("2", 62 * SECOND)).isEqualTo(1_500 * MS);
  }

  @Test
  void aLateAskIsSpreadAgainOverItsLateness() {
    ReconnectGate gate = connectedThenLost(window(Duration.ofSeconds(3)), 0.5, null);
    long want = 20 * SECOND;
    assertThat(gate.admit("2", want)).isEqualTo(1_500 * MS);
    // The JVM was paused: the client asks 600 ms after its due time.
    long late = want + 2_100 * MS;
    assertThat(gate.admit("2", late)).isEqualTo(300 * MS);
    assertThat(gate.admit("2", late + 300 * MS)).isZero();
    assertThat(outcomes).containsExactly("2:deferred", "2:after_delay");
    assertThat(delays).containsExactly(2_400 * MS);
  }

  @Test
  void aClientLateAgainIsNotSpreadASecondTime() {
    // An application that polls its consumer every 400 ms is late at every due time.
    ReconnectGate gate = connectedThenLost(window(Duration.ofSeconds(3)), 0.5, null);
    long want = 20 * SECOND;
    gate.admit("2", want); // due at +1.5 s
    assertThat(gate.admit("2", want + 1_800 * MS)).isEqualTo(150 * MS); // spread once
    assertThat(gate.admit("2", want + 2_200 * MS)).isZero(); // late again: goes ahead
  }

  @Test
  void aSlightlyLateAskGoesAhead() {
    ReconnectGate gate = connectedThenLost(window(Duration.ofSeconds(3)), 0.5, null);
    long want = 20 * SECOND;
    gate.admit("2", want);
    assertThat(gate.admit("2", want + 1_500 * MS + ReconnectGate.LATE_MILLIS * MS - 1)).isZero();
  }

  @Test
  void spreadingAgainNeverPassesTheWindowPlusOneSecond() {
    ReconnectGate gate = connectedThenLost(window(Duration.ofSeconds(3)), 0.5, null);
    long want = 20 * SECOND;
    gate.admit("2", want);
    // Asked 3.6 s after the want: spreading again by half of the 2.1 s lateness would end after
    // want + 3 s + 1 s, so it goes ahead now.
    assertThat(gate.admit("2", want + 3_600 * MS)).isZero();
    assertThat(delays).containsExactly(3_600 * MS);
  }

  @Test
  void clientsReleasedTogetherByAPauseAreSpreadOverIt() {
    // 300 clients whose due times fell into one 600 ms pause of their JVM all ask at its end.
    Random random = new Random(7);
    int n = 300;
    long pauseEnd = 20 * SECOND;
    int[] per10ms = new int[200];
    for (int i = 0; i < n; i++) {
      double[] u = {random.nextDouble()};
      ReconnectGate gate =
          new ReconnectGate(window(Duration.ofSeconds(3)), null, () -> u[0], listener);
      gate.admit("1", 0);
      gate.connected("1", 0);
      gate.admit("2", 0);
      gate.connected("2", 0);
      gate.disconnected("2", SECOND);
      long want = pauseEnd - 600 * MS - (long) (u[0] * 3 * SECOND); // due inside the pause
      gate.admit("2", want);
      u[0] = random.nextDouble();
      long wait = gate.admit("2", pauseEnd);
      long at = pauseEnd + wait;
      if (wait > 0) {
        assertThat(gate.admit("2", at)).isZero();
      }
      per10ms[(int) ((at - pauseEnd) / (10 * MS))]++;
    }
    // Without spreading again all 300 would connect in the first 10 ms; now about 5 per 10 ms.
    assertThat(java.util.Arrays.stream(per10ms).max().orElseThrow()).isLessThanOrEqualTo(15);
  }

  @Test
  void aFailedAttemptIsStaggeredAgain() {
    ReconnectGate gate = connectedThenLost(window(Duration.ofSeconds(2)), 0.25, null);
    assertThat(gate.admit("2", 11 * SECOND)).isEqualTo(500 * MS);
    assertThat(gate.admit("2", 11 * SECOND + 500 * MS)).isZero();
    gate.disconnected("2", 11 * SECOND + 600 * MS); // connection refused
    assertThat(gate.admit("2", 12 * SECOND)).isEqualTo(500 * MS);
  }

  @Test
  void offOrNewNodesAreNotHeldBack() {
    StaggerSettings off =
        StaggerSettings.of(
            false, Duration.ofSeconds(3), Duration.ZERO, 0.25, ClientType.ADMIN, Map.of());
    ReconnectGate gate = connectedThenLost(off, 0.99, null);
    assertThat(gate.admit("2", 11 * SECOND)).isZero();
    assertThat(gate.admit("3", 11 * SECOND)).isZero();
    assertThat(outcomes).containsExactly("2:immediate", "3:immediate");
  }

  @Test
  void startupJitterDelaysANewClientsFirstConnection() {
    StaggerSettings settings =
        StaggerSettings.of(
            true,
            Duration.ofSeconds(3),
            Duration.ofSeconds(4),
            0.25,
            ClientType.CONSUMER,
            Map.of());
    ReconnectGate gate = new ReconnectGate(settings, null, () -> 0.5, listener);
    assertThat(gate.admit("-1", 100)).isEqualTo(2 * SECOND);
    assertThat(gate.admit("-2", 100 + SECOND)).isEqualTo(SECOND); // one draw per client
    assertThat(gate.admit("-1", 100 + 2 * SECOND)).isZero();
    gate.connected("-1", 100 + 2 * SECOND);
    assertThat(gate.admit("1", 100 + 2 * SECOND)).isZero();
  }

  @Test
  void aBrokenRandomSourceNeverStallsAConnection() {
    ReconnectGate gate = connectedThenLost(window(Duration.ofSeconds(3)), Double.NaN, null);
    assertThat(gate.admit("2", 11 * SECOND)).isZero();
  }
}
