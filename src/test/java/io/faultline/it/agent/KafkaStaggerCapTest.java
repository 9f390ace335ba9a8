package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The gate's cap comes from each client's own timeouts, as the agent reads them in a real child
 * JVM. A start-up jitter of 60 s is asked for; the producers run with {@code request.timeout.ms} =
 * {@code delivery.timeout.ms} = 2 s, so the cap (25 %) is 500 ms. The same producers with no
 * start-up jitter, in the same run, are the baseline: with the cap every first record is
 * acknowledged within the baseline's slowest plus {@value #SLACK_MS} ms. Capped by Kafka's default
 * timeouts instead (7.5 s), the chance that all {@value #PRODUCERS} producers would have drawn a
 * delay under 3 s is 0.4^8, below 0.1 %.
 */
@ExtendWith(RealServers.class)
class KafkaStaggerCapTest {

  private static final int PRODUCERS = 8;

  /** The 500 ms cap, and 2.5 s for the noise between two child JVMs on a busy machine. */
  private static final long SLACK_MS = 3000;

  @Test
  void startupJitterIsCappedByTheClientsOwnTimeouts(KafkaCluster kafka) throws Exception {
    kafka.createTopic("stagger-cap", 1);
    List<Long> baseline = firstAcks(kafka, "0s");
    List<Long> jittered = firstAcks(kafka, "60s");
    long allowed = Collections.max(baseline) + SLACK_MS;
    System.out.println(
        "[faultline-it] first acks, ms: no jitter "
            + baseline
            + "; start-up jitter 60s (cap 500 ms) "
            + jittered
            + "; allowed "
            + allowed);
    assertThat(jittered).allSatisfy(ms -> assertThat(ms).isLessThan(allowed));
  }

  /** Each producer's milliseconds from construction to its first ack, with this start-up jitter. */
  private static List<Long> firstAcks(KafkaCluster kafka, String jitter) throws Exception {
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs(
                "prometheus.port="
                    + Http.freePort()
                    + ",kafka.stagger=true,kafka.stagger.window=60s"
                    + ",kafka.stagger.startup-jitter="
                    + jitter)
            .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
    ChildJvm.Result result =
        child
            .run(
                120,
                "io.faultline.it.agent.app.FirstSendApp",
                kafka.bootstrapServers(),
                "stagger-cap",
                Integer.toString(PRODUCERS),
                "2000")
            .assertCleanExit();

    List<Long> firstAckMs = new ArrayList<>();
    for (String line : result.stdout().split("\n")) {
      if (line.startsWith("first-ack-ms=")) {
        firstAckMs.add(Long.parseLong(line.substring("first-ack-ms=".length()).trim()));
      }
    }
    assertThat(result.stdout()).doesNotContain("first-ack-failed");
    assertThat(firstAckMs)
        .as("every producer's first ack, ms (jitter %s)", jitter)
        .hasSize(PRODUCERS);
    return firstAckMs;
  }
}
