package io.faultline.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.QueuedRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionHealthTest {

  private final ScriptedTcpInfoReader reader = new ScriptedTcpInfoReader();
  private final BrokerConnection connection =
      new BrokerConnection(
          ClientType.CONSUMER,
          "replicator",
          "2",
          new InetSocketAddress("10.0.0.7", 9092),
          () -> Outcome.of(42),
          reader);

  @Test
  void seed002ConnectionIsWindowScalingOffWithItsCeiling() {
    TcpFacts facts = TcpFacts.of(TcpInfos.seed002().build());

    var findings = ConnectionHealth.evaluate(connection, facts);

    assertThat(findings).extracting(Finding::id).containsExactly("KAFKA_WINDOW_SCALING_OFF");
    Finding f = findings.get(0);
    // 65535 bytes / 0.2 s = 327675 B/s: the ~325 KB/s the Tencent CKafka incident measured on a 225
    // Mbps link.
    assertThat(f.evidence()).containsEntry("ceiling_bytes_per_second", 327_675L);
    assertThat(f.evidence()).containsEntry("rtt_ms", 200.0);
    assertThat(f.subject()).isEqualTo("client replicator → node 2 (/10.0.0.7:9092)");
    assertThat(f.message()).contains("320.0 KiB/s");
  }

  @Test
  void seed000CollapsedWindowWithDataWaitingOverTime() {
    // Window scale announced 1, used 7: the producer sees ~1.5 KB while its batch waits.
    TcpFacts facts =
        TcpFacts.of(
            TcpInfos.healthy()
                .with(
                    t -> {
                      t.sndWnd = 1_536;
                      t.notsent = 900_000;
                      t.rttMicros = 2_000;
                    })
                .build());
    var watch = new PeerWindowWatch();
    long second = 1_000_000_000L;
    assertThat(watch.observe(facts, 0)).isEmpty();
    assertThat(watch.observe(facts, 10 * second)).isEmpty();
    var collapse = watch.observe(facts, 20 * second);

    assertThat(ConnectionHealth.evaluate(connection, facts))
        .as("one sample does not prove a collapse")
        .isEmpty();
    var findings = ConnectionHealth.evaluate(connection, facts, collapse);
    assertThat(findings).extracting(Finding::id).containsExactly("KAFKA_PEER_WINDOW_COLLAPSED");
    assertThat(findings.get(0).evidence())
        .containsEntry("snd_wnd_bytes", 1_536L)
        .containsEntry("max_window_bytes", 1_536L)
        .containsEntry("notsent_bytes", 900_000L)
        .containsEntry("bdp_bytes", 10 * 1_448L)
        .containsEntry("starved_samples", 3)
        .containsEntry("starved_seconds", 20.0);
    assertThat(findings.get(0).message())
        .contains("1536-byte window while 900000 bytes wait")
        .contains("never exceeded 1536 bytes");
  }

  @Test
  void healthyAndIdleSmallWindowsRaiseNothing() {
    assertThat(ConnectionHealth.evaluate(connection, TcpFacts.of(TcpInfos.healthy().build())))
        .isEmpty();
    TcpFacts idleSmall = TcpFacts.of(TcpInfos.healthy().with(t -> t.sndWnd = 2_000).build());
    assertThat(ConnectionHealth.evaluate(connection, idleSmall)).isEmpty();
    var watch = new PeerWindowWatch();
    for (int i = 0; i < 5; i++) {
      assertThat(watch.observe(idleSmall, i * 10_000_000_000L)).isEmpty();
    }
  }

  @Test
  void limitedSharesAreOverTheIntervalSinceThePreviousSample() {
    TcpInfo before =
        TcpInfos.healthy()
            .with(
                t -> {
                  t.busy = 1_000;
                  t.rwndLimited = 0;
                })
            .build();
    TcpInfo after =
        TcpInfos.healthy()
            .with(
                t -> {
                  t.busy = 3_000;
                  t.rwndLimited = 1_500;
                  t.sndbufLimited = 500;
                })
            .build();
    TcpFacts facts = TcpFacts.of(after, before);
    assertThat(facts.rwndLimitedShare()).hasValue(0.75);
    assertThat(facts.sndbufLimitedShare()).hasValue(0.25);
    assertThat(TcpFacts.of(after).rwndLimitedShare()).hasValue(0.5);
  }

  @Test
  void brokerConnectionKeepsTheLatestSampleAndGaugesReadIt() {
    var registry = new SimpleMeterRegistry();
    var gauges = new ConnectionMeters(LateRegistry.of(registry), KafkaMeterTags.PER_CLIENT);
    gauges.add(connection);
    assertThat(registry.get("faultline.kafka.connection.rtt").gauge().value()).isNaN();

    assertThat(connection.sample().isAvailable()).isFalse();
    assertThat(connection.lastProblem()).hasValue("closed");

    reader.set(TcpInfos.seed002().build());
    assertThat(connection.sample().isAvailable()).isTrue();
    assertThat(registry.get("faultline.kafka.connection.rtt").gauge().value()).isEqualTo(0.2);
    assertThat(registry.get("faultline.kafka.connection.window_scaling").gauge().value()).isZero();
    assertThat(
            registry
                .get("faultline.kafka.connection.throughput_ceiling")
                .tags("client.type", "consumer", "client.id", "replicator", "node.id", "2")
                .gauge()
                .value())
        .isEqualTo(327_675.0);
    assertThat(registry.get("faultline.kafka.connection.rwnd_limited").gauge().value())
        .isEqualTo(0.9);

    gauges.remove(connection);
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void oneGaugeSetPerClientTypeAndNodeShowsTheWorstConnection() {
    var registry = new SimpleMeterRegistry();
    var gauges = new ConnectionMeters(LateRegistry.of(registry), KafkaMeterTags.DEFAULT);
    var healthyReader = new ScriptedTcpInfoReader();
    healthyReader.set(TcpInfos.healthy().build());
    reader.set(TcpInfos.seed002().build());
    List<BrokerConnection> healthy = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      healthy.add(
          new BrokerConnection(
              ClientType.CONSUMER,
              "reader-" + i,
              "2",
              new InetSocketAddress("10.0.0.7", 9092),
              () -> Outcome.of(7),
              healthyReader));
    }
    healthy.forEach(gauges::add);
    gauges.add(connection); // the Tencent CKafka one, another client id
    var otherNode =
        new BrokerConnection(
            ClientType.CONSUMER,
            "reader-0",
            "3",
            new InetSocketAddress("10.0.0.8", 9092),
            () -> Outcome.of(8),
            healthyReader);
    gauges.add(otherNode);
    healthy.forEach(BrokerConnection::sample);
    connection.sample();
    otherNode.sample();

    assertThat(gauges.groupCount()).isEqualTo(2);
    var scaling = registry.get("faultline.kafka.connection.window_scaling");
    assertThat(scaling.gauges()).hasSize(2);
    assertThat(scaling.tags("node.id", "2").gauge().getId().getTag("client.id")).isNull();
    assertThat(scaling.tags("node.id", "2").gauge().value()).as("one lost it").isZero();
    assertThat(
            registry
                .get("faultline.kafka.connection.window_scaling")
                .tags("node.id", "3")
                .gauge()
                .value())
        .isEqualTo(1.0);
    assertThat(
            registry
                .get("faultline.kafka.connection.rtt")
                .tags("client.type", "consumer", "node.id", "2")
                .gauge()
                .value())
        .as("the longest")
        .isEqualTo(0.2);
    assertThat(
            registry
                .get("faultline.kafka.connection.retransmits")
                .tags("node.id", "2")
                .gauge()
                .value())
        .as("added up")
        .isEqualTo(
            3 * TcpInfos.healthy().build().totalRetrans()
                + TcpInfos.seed002().build().totalRetrans());

    gauges.remove(connection);
    assertThat(
            registry
                .get("faultline.kafka.connection.window_scaling")
                .tags("node.id", "2")
                .gauge()
                .value())
        .as("the crippled one closed")
        .isEqualTo(1.0);
    healthy.forEach(gauges::remove);
    assertThat(registry.find("faultline.kafka.connection.rtt").tags("node.id", "2").gauge())
        .as("the last one out removes the set")
        .isNull();
    assertThat(registry.find("faultline.kafka.connection.rtt").tags("node.id", "3").gauge())
        .isNotNull();
  }

  @Test
  void aThrowingDescriptorSourceIsAnUnavailableSample() {
    var broken =
        new BrokerConnection(
            ClientType.PRODUCER,
            "p",
            "1",
            new InetSocketAddress("10.0.0.1", 9092),
            () -> {
              throw new IllegalStateException("boom");
            },
            reader);
    assertThat(broken.sample().reason()).hasValueSatisfying(r -> assertThat(r).contains("boom"));
  }

  @Test
  void gaugesWaitForTheRegistryAndAConnectionGoneBeforeItLeavesNone() {
    var late = new QueuedRegistry();
    var gauges = new ConnectionMeters(late, KafkaMeterTags.DEFAULT);
    var gone =
        new BrokerConnection(
            ClientType.CONSUMER,
            "reader-0",
            "3",
            new InetSocketAddress("10.0.0.8", 9092),
            () -> Outcome.of(8),
            reader);
    gauges.add(connection);
    gauges.add(gone);
    gauges.remove(gone);
    reader.set(TcpInfos.seed002().build());
    connection.sample();

    var registry = new SimpleMeterRegistry();
    late.open(registry);

    var rtt = registry.get("faultline.kafka.connection.rtt");
    assertThat(rtt.gauges()).as("node 2's set only").hasSize(1);
    assertThat(rtt.tags("node.id", "2").gauge().value()).isEqualTo(0.2);
    gauges.remove(connection);
    assertThat(registry.getMeters()).isEmpty();
  }
}
