package io.faultline.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.finding.Finding;
import io.faultline.core.host.ProcFs;
import io.faultline.kafka.ClientType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientConfigAdvisorTest {

  /** The Tencent CKafka incident: 225 Mbps measured by iperf3 across the ocean, ~200 ms RTT. */
  private static final LinkMeasurement SEED_002 = LinkMeasurement.ofMbps(225, 200);

  @Test
  void seed002SixtyFourKibBuffersCapTheConsumerNearThreeHundredKbPerSecond() {
    var advice =
        ClientConfigAdvisor.socketBuffers(
            ClientType.CONSUMER,
            "replicator",
            Map.of("receive.buffer.bytes", 65_536, "send.buffer.bytes", 65_536),
            SEED_002,
            KernelBufferLimits.unknown());

    // 225e6 / 8 B/s × 0.2 s = 5 625 000 bytes must be in flight to fill the link.
    assertThat(advice.bdpBytes()).isEqualTo(5_625_000);
    assertThat(advice.findings())
        .extracting(Finding::subject)
        .containsExactly(
            "client replicator: send.buffer.bytes", "client replicator: receive.buffer.bytes");
    Finding receive = advice.findings().get(1);
    // 65 536 B / 0.2 s = 327 680 B/s: the 300–325 KB/s the Tencent CKafka incident measured.
    assertThat(receive.evidence()).containsEntry("ceiling_bytes_per_second", 327_680L);
    assertThat(receive.evidence()).containsEntry("recommended", -1);
    assertThat(receive.message()).contains("328 KB/s").contains("receive.buffer.bytes=-1");
    assertThat(advice.notes())
        .anySatisfy(
            n -> assertThat(n).contains("socket.receive.buffer.bytes").contains("512 KB/s"));
  }

  @Test
  void seed002FetchSizeIsTooSmallForTheLinkButTheDefaultIsNot() {
    var small =
        ClientConfigAdvisor.socketBuffers(
            ClientType.CONSUMER,
            "c",
            Map.of("max.partition.fetch.bytes", 262_144),
            SEED_002,
            KernelBufferLimits.unknown());
    // 256 KiB per 200 ms round trip = 1.3 MB/s per partition, against 28.1 MB/s.
    assertThat(small.notes())
        .anySatisfy(
            n ->
                assertThat(n)
                    .startsWith("max.partition.fetch.bytes=262144 returns at most 1.3 MB/s")
                    .contains("at least 5625000"));
    var fast =
        ClientConfigAdvisor.socketBuffers(
            ClientType.CONSUMER,
            "c",
            Map.of(),
            LinkMeasurement.ofMbps(10, 20),
            KernelBufferLimits.unknown());
    assertThat(fast.notes()).noneSatisfy(n -> assertThat(n).contains("max.partition.fetch.bytes"));
  }

  @Test
  void defaultsAreKafkasPerClientType() {
    var producer =
        ClientConfigAdvisor.socketBuffers(
            ClientType.PRODUCER, "p", Map.of(), SEED_002, KernelBufferLimits.unknown());
    assertThat(producer.sendBufferBytes()).isEqualTo(128 * 1024);
    assertThat(producer.receiveBufferBytes()).isEqualTo(32 * 1024);
    var consumer =
        ClientConfigAdvisor.socketBuffers(
            ClientType.CONSUMER, "c", Map.of(), SEED_002, KernelBufferLimits.unknown());
    assertThat(consumer.receiveBufferBytes()).isEqualTo(64 * 1024);
  }

  @Test
  void autotuningIsFineUnlessTheKernelCeilingIsBelowTheBdp() {
    var kernel =
        new KernelBufferLimits(
            OptionalLong.of(212_992),
            OptionalLong.of(212_992),
            OptionalLong.of(6_291_456),
            OptionalLong.of(4_194_304));
    var advice =
        ClientConfigAdvisor.socketBuffers(
            ClientType.PRODUCER,
            "p",
            Map.of("send.buffer.bytes", -1, "receive.buffer.bytes", "-1"),
            SEED_002,
            kernel);
    assertThat(advice.findings()).isEmpty();
    assertThat(advice.notes())
        .anySatisfy(n -> assertThat(n).startsWith("net.ipv4.tcp_wmem allows at most 4194304"))
        .noneSatisfy(n -> assertThat(n).startsWith("net.ipv4.tcp_rmem"));
  }

  @Test
  void anExplicitBufferAboveTheCoreMaximumIsCappedByIt() {
    // 1 ms RTT, 1 Gbit/s: BDP 125 000 bytes; 1 MiB asked, but rmem_max grants 100 000.
    var kernel =
        new KernelBufferLimits(
            OptionalLong.of(100_000),
            OptionalLong.of(100_000),
            OptionalLong.empty(),
            OptionalLong.empty());
    var advice =
        ClientConfigAdvisor.socketBuffers(
            ClientType.CONSUMER,
            "c",
            Map.of("receive.buffer.bytes", 1 << 20, "send.buffer.bytes", -1),
            LinkMeasurement.ofMbps(1_000, 1),
            kernel);
    assertThat(advice.findings())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.evidence()).containsEntry("effective_bytes", 100_000L);
              assertThat(f.evidence()).containsEntry("bdp_bytes", 125_000L);
            });
  }

  @Test
  void readsKernelLimitsThroughProcFs(@TempDir Path root) throws IOException {
    write(root, "proc/sys/net/core/rmem_max", "212992\n");
    write(root, "proc/sys/net/core/wmem_max", "212992\n");
    write(root, "proc/sys/net/ipv4/tcp_rmem", "4096\t131072\t6291456\n");
    write(root, "proc/sys/net/ipv4/tcp_wmem", "4096 16384 4194304\n");
    var limits = KernelBufferLimits.read(ProcFs.at(root));
    assertThat(limits.rmemMax()).hasValue(212_992);
    assertThat(limits.tcpRmemMax()).hasValue(6_291_456);
    assertThat(limits.tcpWmemMax()).hasValue(4_194_304);
    assertThat(KernelBufferLimits.read(ProcFs.at(root.resolve("missing"))))
        .isEqualTo(KernelBufferLimits.unknown());
  }

  @Test
  void theNoJitterTrap() {
    assertThat(ClientConfigAdvisor.reconnectBackoff("p", Map.of("reconnect.backoff.ms", 1000)))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.id()).isEqualTo("KAFKA_RECONNECT_BACKOFF_NO_JITTER");
              assertThat(f.evidence()).containsEntry("reconnect.backoff.max.ms", "unset");
            });
    assertThat(
            ClientConfigAdvisor.reconnectBackoff(
                "p", Map.of("reconnect.backoff.ms", "500", "reconnect.backoff.max.ms", "500")))
        .hasSize(1);
    assertThat(
            ClientConfigAdvisor.reconnectBackoff(
                "p", Map.of("reconnect.backoff.ms", 50, "reconnect.backoff.max.ms", 1000)))
        .isEmpty();
    assertThat(ClientConfigAdvisor.reconnectBackoff("p", Map.of())).isEmpty();
  }

  @Test
  void badMeasurementsAreRejectedWithTheFix() {
    assertThatThrownBy(() -> new LinkMeasurement(0, 1))
        .hasMessageContaining("rttMicros must be positive");
    assertThatThrownBy(() -> new LinkMeasurement(1, Double.NaN))
        .hasMessageContaining("bytesPerSecond must be positive");
  }

  private static void write(Path root, String relative, String text) throws IOException {
    Path p = root.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }
}
