package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.finding.Finding;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.examples.kafkaadvice.KafkaGuardAdviceExample;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.RealServers;
import io.faultline.kafka.connection.ConnectionReport;
import io.faultline.kafka.connection.TcpFacts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The kafka-guard-advice example against a real broker: it finds its own connections with their TCP
 * facts, and the advice names both traps in its configuration.
 */
@ExtendWith(RealServers.class)
class KafkaGuardAdviceExampleTest {

  @Test
  void reportsTheConnectionsAndAdvisesOnTheConfiguration(KafkaCluster kafka) throws Exception {
    assumeTrue(TcpInfoReader.create().isSupported(), "TCP_INFO is read only on Linux");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    KafkaGuardAdviceExample.Result result =
        KafkaGuardAdviceExample.run(
            kafka.bootstrapServers(), new PrintStream(printed, true, StandardCharsets.UTF_8));
    String out = printed.toString(StandardCharsets.UTF_8);
    System.out.print(out);

    assertThat(result.brokers())
        .containsExactlyInAnyOrderElementsOf(
            kafka.nodes().stream().map(KafkaNode::address).toList());
    assertThat(result.report().notFound()).isEmpty();
    assertThat(result.report().entries()).hasSizeGreaterThanOrEqualTo(2);
    for (ConnectionReport.Entry e : result.report().entries()) {
      TcpFacts facts = e.facts().value().orElseThrow(() -> new AssertionError(e.facts()));
      assertThat(facts.windowScaling()).isTrue();
      assertThat(facts.rttMicros()).isPositive();
    }
    // 225 Mbps × 40 ms = 1,125,000 bytes in flight; the producer's defaults are far below.
    assertThat(result.advice().bdpBytes()).isEqualTo(1_125_000);
    assertThat(result.advice().sendBufferBytes()).isEqualTo(128 * 1024);
    assertThat(result.advice().receiveBufferBytes()).isEqualTo(32 * 1024);
    assertThat(result.findings())
        .extracting(Finding::id)
        .contains("KAFKA_SOCKET_BUFFER_BELOW_BDP", "KAFKA_RECONNECT_BACKOFF_NO_JITTER");
    assertThat(out).contains("finding KAFKA_RECONNECT_BACKOFF_NO_JITTER");
  }
}
