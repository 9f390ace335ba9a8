package io.faultline.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.kafka.ClientType;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdviceReporterTest {

  @Test
  void reportsEachClientOnce() {
    var findings = new Findings(Duration.ofMinutes(10), Clock.systemUTC(), System.getLogger("t"));
    var reporter = new AdviceReporter(findings);
    Map<String, Object> config = Map.of("send.buffer.bytes", 65_536, "reconnect.backoff.ms", 500);
    var advice =
        ClientConfigAdvisor.socketBuffers(
            ClientType.PRODUCER,
            "p1",
            config,
            LinkMeasurement.ofMbps(225, 200),
            KernelBufferLimits.unknown());
    var backoff = ClientConfigAdvisor.reconnectBackoff("p1", config);

    assertThat(reporter.reportOnce("p1", advice, backoff)).isTrue();
    assertThat(reporter.reportOnce("p1", advice, backoff)).isFalse();
    assertThat(findings.active())
        .extracting(Finding::id)
        .containsExactlyInAnyOrder(
            "KAFKA_SOCKET_BUFFER_BELOW_BDP",
            "KAFKA_SOCKET_BUFFER_BELOW_BDP",
            "KAFKA_RECONNECT_BACKOFF_NO_JITTER");
    assertThat(findings.raisedCount("KAFKA_SOCKET_BUFFER_BELOW_BDP")).isEqualTo(2);
    assertThat(reporter.reportOnce("p2", null, null)).isTrue();
  }
}
