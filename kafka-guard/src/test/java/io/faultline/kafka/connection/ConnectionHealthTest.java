package io.faultline.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.kafka.ClientType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
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
    // 65535 bytes / 0.2 s = 327675 B/s: the ~325 KB/s seed 002 measured on a 225 Mbps link.
    assertThat(f.evidence()).containsEntry("ceiling_bytes_per_second", 327_675L);
    assertThat(f.evidence()).containsEntry("rtt_ms", 200.0);
    assertThat(f.subject()).isEqualTo("client replicator → node 2 (/10.0.0.7:9092)");
    assertThat(f.message()).contains("320.0 KiB/s");
  }

  @Test
  void seed000CollapsedWindowWithDataWaiting() {
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

    var findings = ConnectionHealth.evaluate(connection, facts);

    assertThat(findings).extracting(Finding::id).containsExactly("KAFKA_PEER_WINDOW_COLLAPSED");
    assertThat(findings.get(0).evidence())
        .containsEntry("snd_wnd_bytes", 1_536L)
        .containsEntry("notsent_bytes", 900_000L);
  }

  @Test
  void healthyAndIdleSmallWindowsRaiseNothing() {
    assertThat(ConnectionHealth.evaluate(connection, TcpFacts.of(TcpInfos.healthy().build())))
        .isEmpty();
    TcpFacts idleSmall = TcpFacts.of(TcpInfos.healthy().with(t -> t.sndWnd = 2_000).build());
    assertThat(ConnectionHealth.evaluate(connection, idleSmall)).isEmpty();
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
    var gauges = new ConnectionGauges(registry, connection);
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
                .tags("client.id", "replicator", "node.id", "2")
                .gauge()
                .value())
        .isEqualTo(327_675.0);
    assertThat(registry.get("faultline.kafka.connection.rwnd_limited").gauge().value())
        .isEqualTo(0.9);

    gauges.close();
    assertThat(registry.getMeters()).isEmpty();
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
}
