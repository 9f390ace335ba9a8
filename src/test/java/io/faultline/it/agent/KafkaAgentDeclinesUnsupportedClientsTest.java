package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent in front of a kafka-clients whose methods it was not written for (2.2.2: staged
 * receives, no {@code Selector.addToCompletedReceives(KafkaChannel, NetworkReceive, long)}): the
 * Kafka modules whose advised methods are missing turn themselves off as {@code INCOMPATIBLE} with
 * a message naming the method, the application produces and consumes as without the agent, and
 * nothing is counted as an agent error. {@code /faultline/agent}, the status page and the {@code
 * faultline_agent_module_active} gauge say which modules are off and why ({@link
 * KafkaClientsCheck}).
 */
@ExtendWith(RealServers.class)
class KafkaAgentDeclinesUnsupportedClientsTest {

  @Test
  void kafkaModulesTurnThemselvesOffAndTheApplicationRunsUnchanged(KafkaCluster kafka)
      throws Exception {
    String jar = System.getProperty("faultline.it.kafka.unsupported.jar");
    String version = System.getProperty("faultline.it.kafka.unsupported.version");
    assertThat(jar).as("faultline.it.kafka.unsupported.jar (set by src/test/pom.xml)").isNotNull();
    assertThat(Path.of(jar)).isRegularFile();
    KafkaClientsCheck.Outcome outcome = KafkaClientsCheck.run(kafka, version, Path.of(jar));
    assertThat(outcome.declined()).contains(KafkaClientsCheck.PHASES);
    assertThat(outcome.reasons().get(KafkaClientsCheck.PHASES))
        .contains("org.apache.kafka.common.network.Selector has no method matching");
  }
}
