package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The gate's cap comes from each client's own timeouts, as the agent reads them in a real child
 * JVM. A start-up jitter of 60 s is asked for; the producers run with {@code request.timeout.ms} =
 * {@code delivery.timeout.ms} = 2 s, so the cap (25 %) is 500 ms and every first record is
 * acknowledged within 4 s (a cold JVM's first send takes about a second). Capped by Kafka's default
 * timeouts instead (7.5 s), the chance that all {@value #PRODUCERS} producers would have drawn a
 * delay under 3 s is 0.4^8, below 0.1 %.
 */
@ExtendWith(RealServers.class)
class KafkaStaggerCapTest {

  private static final int PRODUCERS = 8;

  @Test
  void startupJitterIsCappedByTheClientsOwnTimeouts(KafkaCluster kafka) throws Exception {
    kafka.createTopic("stagger-cap", 1);
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs(
                "prometheus.port="
                    + Http.freePort()
                    + ",kafka.stagger=true,kafka.stagger.window=60s"
                    + ",kafka.stagger.startup-jitter=60s")
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
    assertThat(firstAckMs).as("every producer's first ack, ms").hasSize(PRODUCERS);
    assertThat(firstAckMs).allSatisfy(ms -> assertThat(ms).isLessThan(4000));
  }
}
