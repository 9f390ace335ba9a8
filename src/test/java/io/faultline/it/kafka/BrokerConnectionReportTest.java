package io.faultline.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.net.TcpInfoReader;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.RealServers;
import io.faultline.kafka.connection.ConnectionReport;
import io.faultline.kafka.connection.TcpFacts;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Without the agent, {@link ConnectionReport} finds this JVM's sockets to a real broker by remote
 * address and reads their TCP facts from the kernel.
 */
@ExtendWith(RealServers.class)
class BrokerConnectionReportTest {

  @Test
  void reportsTheTcpFactsOfARunningClientsBrokerConnections(KafkaCluster kafka) throws Exception {
    assumeTrue(TcpInfoReader.create().isSupported(), "TCP_INFO is read only on Linux");
    String topic = "report-" + UUID.randomUUID();
    kafka.createTopic(topic, 1);
    try (Admin admin = Admin.create(kafka.clientProperties(Map.of()));
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(
                kafka.clientProperties(Map.of(ProducerConfig.ACKS_CONFIG, "all")),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
      // 1 MB through the connection so the kernel has an RTT, a window and a delivery rate.
      for (int i = 0; i < 16; i++) {
        producer.send(new ProducerRecord<>(topic, new byte[64 * 1024]));
      }
      producer.flush();
      producer.send(new ProducerRecord<>(topic, new byte[10])).get(60, TimeUnit.SECONDS);

      List<InetSocketAddress> brokers = ConnectionReport.brokersOf(admin);
      ConnectionReport report = ConnectionReport.of(brokers);
      System.out.print(report.render());

      assertThat(brokers)
          .containsExactlyInAnyOrderElementsOf(
              kafka.nodes().stream().map(KafkaNode::address).toList());
      // The producer's and the admin client's connections at least (bootstrap ones may linger).
      assertThat(report.entries()).hasSizeGreaterThanOrEqualTo(2);
      assertThat(report.notFound()).isEmpty();
      for (ConnectionReport.Entry e : report.entries()) {
        TcpFacts facts = e.facts().value().orElseThrow(() -> new AssertionError(e.facts()));
        assertThat(facts.windowScaling()).as("window scaling on %s", e.local()).isTrue();
        assertThat(facts.rttMicros()).isPositive();
        assertThat(facts.info().bytesAcked().orElse(0)).isPositive();
        assertThat(e.findings()).isEmpty();
      }
      long bigSender =
          report.entries().stream()
              .mapToLong(e -> e.facts().value().orElseThrow().info().bytesAcked().orElse(0))
              .max()
              .orElseThrow();
      assertThat(bigSender).isGreaterThan(1_000_000);
    }
  }

  @Test
  void aBootstrapAddressWithoutAConnectionIsNamed(KafkaCluster kafka) {
    List<InetSocketAddress> nowhere = ConnectionReport.parseBootstrap("127.0.0.1:1, [::1]:2");
    ConnectionReport report = ConnectionReport.of(nowhere);
    assertThat(report.entries()).isEmpty();
    assertThat(report.notFound()).hasSize(2);
    assertThat(report.render()).contains("no established connection from this JVM");
    assertThat(ConnectionReport.parseBootstrap(kafka.bootstrapServers()))
        .hasSize(kafka.nodes().size());
  }
}
