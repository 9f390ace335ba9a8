package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Kafka instrumentation end to end ({@link KafkaClientsCheck}): a plain producer-and-consumer
 * application with no Faultline code runs in a child JVM with {@code -javaagent:} against a real
 * broker, on kafka-clients 4.4 (the suite's own) and on the compatibility version (3.9.2). {@code
 * /metrics} must show the request phases per node, API and phase with sane values, the connection
 * gauges, and no suppressed errors. The other versions are the matrix's ({@code -Pmatrix}).
 */
@ExtendWith(RealServers.class)
class KafkaAgentPhasesTest {

  @Test
  void phasesAndConnectionsOnTheSuitesKafkaClients(KafkaCluster kafka) throws Exception {
    KafkaClientsCheck.instrumented(
        kafka, "current", ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class));
  }

  @Test
  void phasesAndConnectionsOnTheCompatibilityKafkaClients(KafkaCluster kafka) throws Exception {
    String jar = System.getProperty("faultline.it.kafka.compat.jar");
    assertThat(jar).as("faultline.it.kafka.compat.jar (set by src/test/pom.xml)").isNotNull();
    assertThat(Path.of(jar)).isRegularFile();
    KafkaClientsCheck.instrumented(
        kafka, System.getProperty("faultline.it.kafka.compat.version", "compat"), Path.of(jar));
  }
}
