package io.faultline.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.net.Outcome;
import io.faultline.kafka.ClientType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionMonitorTest {

  private final ScriptedTcpInfoReader reader = new ScriptedTcpInfoReader();
  private final Findings findings =
      new Findings(Duration.ofMinutes(10), Clock.systemUTC(), System.getLogger("test"));
  private final List<String> recycled = new ArrayList<>();
  private long now;

  private BrokerConnection connection() {
    return connection("2");
  }

  private BrokerConnection connection(String node) {
    return new BrokerConnection(
        ClientType.CONSUMER,
        "replicator",
        node,
        new InetSocketAddress("10.0.0.7", 9092),
        () -> Outcome.of(3),
        reader);
  }

  @Test
  void aConnectionStillInItsHandshakeIsNotJudged() {
    var registry = new SimpleMeterRegistry();
    var recycler =
        new Recycler(
            new Recycler.Policy(RecycleMode.ON, 2, Duration.ofMinutes(5), 0.8),
            (key, reason) -> recycled.add(key));
    var monitor = new ConnectionMonitor(findings, recycler, registry, () -> now);
    // A reconnect to a broker that is down: SYN sent, nothing negotiated yet; then refused by a
    // broker whose host is back but whose port is not listening yet: closed, nothing negotiated.
    monitor.add("replicator/2", connection());
    reader.set(TcpInfos.connecting().build());
    for (int i = 0; i < 3; i++) {
      now += 10_000_000_000L;
      assertThat(monitor.sampleNow("replicator/2")).isEmpty();
    }
    reader.set(TcpInfos.refused().build());
    for (int i = 0; i < 3; i++) {
      now += 10_000_000_000L;
      assertThat(monitor.sampleNow("replicator/2")).isEmpty();
    }
    assertThat(findings.active()).isEmpty();
    assertThat(recycled).isEmpty();

    // The broker answers; the connection is judged from then on (one sample: suspect, not yet
    // recycled, so the three before it were not counted).
    reader.set(TcpInfos.seed002().build());
    assertThat(monitor.sampleNow("replicator/2"))
        .extracting(Finding::id)
        .containsExactly("KAFKA_WINDOW_SCALING_OFF");
    monitor.close();
  }

  @Test
  void raisesRecyclesAndClearsWhenTheConnectionHeals() {
    var registry = new SimpleMeterRegistry();
    var recycler =
        new Recycler(
            new Recycler.Policy(RecycleMode.ON, 2, Duration.ofMinutes(5), 0.8),
            (key, reason) -> recycled.add(key));
    var monitor = new ConnectionMonitor(findings, recycler, registry, () -> now);
    monitor.add("replicator/2", connection());

    reader.set(TcpInfos.seed002().build());
    monitor.sampleAll();
    assertThat(findings.active())
        .extracting(Finding::id)
        .containsExactly("KAFKA_WINDOW_SCALING_OFF");
    now += 10_000_000_000L;
    List<Finding> second = monitor.sampleNow("replicator/2");
    assertThat(second)
        .extracting(Finding::id)
        .containsExactly("KAFKA_WINDOW_SCALING_OFF", "KAFKA_CONNECTION_RECYCLED");
    assertThat(recycled).containsExactly("replicator/2");

    // The recycle's own disconnect: the finding waits for the connection that replaces it.
    monitor.remove("replicator/2");
    assertThat(findings.active())
        .extracting(Finding::id)
        .containsExactly("KAFKA_CONNECTION_RECYCLED");

    // The client reconnects; the new connection negotiated window scaling: the recycle worked.
    monitor.add("replicator/2", connection());
    reader.set(TcpInfos.healthy().build());
    monitor.sampleAll();
    assertThat(findings.active()).as("findings once the new connection is healthy").isEmpty();
    assertThat(registry.get("faultline.kafka.connection.window_scaling").gauge().value())
        .isEqualTo(1.0);

    assertThat(
            registry
                .get("faultline.kafka.connection.recycles")
                .tags("node.id", "2", "outcome", "recycled")
                .counter()
                .count())
        .isEqualTo(1.0);

    monitor.close();
    assertThat(registry.getMeters())
        .as("the connection gauges go; the recycle count stays")
        .extracting(m -> m.getId().getName())
        .containsExactly("faultline.kafka.connection.recycles");
  }

  @Test
  void aRecycleStaysReportedWhileTheConnectionComesBackCrippled() {
    var recycler =
        new Recycler(
            new Recycler.Policy(RecycleMode.ON, 1, Duration.ofMinutes(5), 0.8),
            (key, reason) -> recycled.add(key));
    var monitor = new ConnectionMonitor(findings, recycler, null, () -> now);
    monitor.add("replicator/2", connection());
    reader.set(TcpInfos.seed002().build());
    monitor.sampleAll();
    assertThat(recycled).containsExactly("replicator/2");
    monitor.remove("replicator/2");

    // Reconnected through the same broken handshake: still no window scaling.
    monitor.add("replicator/2", connection());
    now += 10_000_000_000L;
    monitor.sampleAll();
    assertThat(findings.active())
        .extracting(Finding::id)
        .containsExactlyInAnyOrder("KAFKA_WINDOW_SCALING_OFF", "KAFKA_CONNECTION_RECYCLED");

    // That connection goes away (the client closed): nothing left the finding is about.
    monitor.remove("replicator/2");
    assertThat(findings.active()).isEmpty();
    monitor.close();
  }

  @Test
  void bootstrapConnectionsAreReportedButNeverRecycled() {
    var recycler =
        new Recycler(
            new Recycler.Policy(RecycleMode.ON, 1, Duration.ZERO, 0.8),
            (key, reason) -> recycled.add(key));
    var monitor = new ConnectionMonitor(findings, recycler, null, () -> now);
    monitor.add("replicator/-1", connection("-1"));
    monitor.add("replicator/2", connection("2"));
    reader.set(TcpInfos.seed002().build());
    monitor.sampleNow("replicator/-1");
    monitor.sampleNow("replicator/-1");
    assertThat(findings.active()).extracting(Finding::id).contains("KAFKA_WINDOW_SCALING_OFF");
    assertThat(recycled).as("a bootstrap connection is not reconnected once closed").isEmpty();
    monitor.sampleNow("replicator/2");
    assertThat(recycled).as("and does not hold the recycle guard").containsExactly("replicator/2");
  }

  @Test
  void aFailedReadKeepsWhatWasReported() {
    var monitor = new ConnectionMonitor(findings, null, null, () -> now);
    monitor.add("c/2", connection());
    reader.set(TcpInfos.seed002().build());
    monitor.sampleAll();
    reader.set(null);
    assertThat(monitor.sampleNow("c/2")).isEmpty();
    assertThat(findings.active()).hasSize(1);
    assertThat(monitor.sampleNow("unknown")).isEmpty();
    monitor.remove("c/2");
    assertThat(findings.active()).isEmpty();
  }

  @Test
  void aCollapsedWindowIsRaisedOnlyOnceItPersistsAndClearsWhenItOpens() {
    var monitor = new ConnectionMonitor(findings, null, null, () -> now);
    monitor.add("p/2", connection());
    reader.set(
        TcpInfos.healthy()
            .with(
                t -> {
                  t.sndWnd = 1_536;
                  t.notsent = 900_000;
                })
            .build());
    monitor.sampleAll();
    now += 5_000_000_000L;
    monitor.sampleAll();
    assertThat(findings.active()).as("two samples over 5 s").isEmpty();
    now += 5_000_000_000L;
    monitor.sampleAll();
    assertThat(findings.active())
        .extracting(Finding::id)
        .containsExactly("KAFKA_PEER_WINDOW_COLLAPSED");

    reader.set(TcpInfos.healthy().build()); // the window opens to 3 MB: the scale works
    now += 5_000_000_000L;
    monitor.sampleAll();
    assertThat(findings.active()).isEmpty();
  }

  @Test
  void aStalledLinkOutlivesItsConnectionAndClearsOnceAConnectionIsAcknowledged() {
    var monitor = new ConnectionMonitor(findings, null, null, () -> now);
    monitor.add("p#1/2", connection());
    reader.set(TcpInfos.stalled().build());
    assertThat(monitor.sampleNow("p#1/2"))
        .extracting(Finding::id)
        .containsExactly("KAFKA_BROKER_LINK_STALLED");
    Finding finding = findings.active().get(0);
    assertThat(finding.message())
        .contains("node 2", "7.0 s", "9 segments", "5 times", "6400 ms")
        .doesNotContain("seed");

    // The client gives up on the connection at its request timeout and closes it; its reconnects
    // wait in SYN_SENT, which are not connections yet: the link is still down.
    monitor.remove("p#1/2");
    assertThat(findings.active()).extracting(Finding::id).containsExactly(finding.id());

    // A new connection under the key was acknowledged (it is established): the link works.
    monitor.add("p#1/2", connection());
    reader.set(TcpInfos.healthy().build());
    monitor.sampleAll();
    assertThat(findings.active()).isEmpty();
    monitor.close();
  }

  @Test
  void aStalledLinkClearsWhenTheSameConnectionIsAcknowledgedOrItsClientCloses() {
    var monitor = new ConnectionMonitor(findings, null, null, () -> now);
    monitor.add("p#1/2", connection());
    monitor.add("p#10/2", connection());
    reader.set(TcpInfos.stalled().build());
    monitor.sampleAll();
    assertThat(findings.active()).hasSize(1); // one subject: both clients say "replicator"

    reader.set(TcpInfos.healthy().with(t -> t.unacked = 3).build()); // acknowledged, more sent
    monitor.sampleNow("p#1/2");
    assertThat(findings.active()).isEmpty();

    reader.set(TcpInfos.stalled().build());
    monitor.sampleNow("p#10/2");
    monitor.remove("p#10/2");
    assertThat(findings.active()).hasSize(1);
    monitor.removeAll("p#1/");
    assertThat(findings.active()).as("another client's keys are not its").hasSize(1);
    monitor.removeAll("p#10/");
    assertThat(findings.active()).isEmpty();
  }
}
