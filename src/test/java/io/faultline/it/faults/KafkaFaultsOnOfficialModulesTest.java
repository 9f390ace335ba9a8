package io.faultline.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.it.servers.LocalImages;
import io.faultline.it.servers.RequiresDocker;
import io.faultline.testcontainers.BrokerRestart;
import io.faultline.testcontainers.KafkaFaults;
import io.faultline.testcontainers.NetworkFault;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.kafka.ConfluentKafkaContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * {@link KafkaFaults} on Testcontainers' own Kafka module, as a user's test writes it: {@code
 * KafkaContainer} (for {@code apache/kafka}) and {@code ConfluentKafkaContainer} (for {@code
 * confluentinc/cp-kafka}), clients on the mapped host port. No registry answers here, so both run
 * the suite's broker image laid out as the official ones are ({@link
 * LocalImages#kafkaWithOfficialLayout()}).
 */
@RequiresDocker("Testcontainers' Kafka module runs the broker in a container")
class KafkaFaultsOnOfficialModulesTest {

  private static DockerImageName image(String official) {
    return DockerImageName.parse(LocalImages.kafkaWithOfficialLayout())
        .asCompatibleSubstituteFor(official);
  }

  private static KafkaProducer<String, String> producer(String bootstrap) {
    return new KafkaProducer<>(
        Map.of("bootstrap.servers", bootstrap, "acks", "all"),
        new StringSerializer(),
        new StringSerializer());
  }

  private static void produce(String bootstrap, String topic) throws Exception {
    try (KafkaProducer<String, String> p = producer(bootstrap)) {
      p.send(new ProducerRecord<>(topic, "x")).get(60, TimeUnit.SECONDS);
    }
  }

  /** The broker's established connections on port 9092 with their TCP options, as it sees them. */
  private static String brokerConnections(GenericContainer<?> c) throws Exception {
    return c.execInContainer("ss", "-tniH", "state", "established", "( sport = :9092 )")
        .getStdout();
  }

  private static boolean hostCanEnter() {
    try {
      Process p =
          new ProcessBuilder("sh", "-c", "[ $(id -u) = 0 ] && command -v nsenter nft")
              .redirectErrorStream(true)
              .start();
      return p.waitFor() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  @Test
  void kafkaContainerLosesWindowScalingOnNewConnectionsOnlyAndGetsASlowLink() throws Exception {
    assumeTrue(hostCanEnter(), "the image has no nft: needs root, nsenter and nft on the host");
    try (KafkaContainer kafka = KafkaFaults.prepare(new KafkaContainer(image("apache/kafka")));
        KafkaFaults faults = KafkaFaults.on(kafka)) {
      kafka.start();
      String topic = "official-" + UUID.randomUUID();
      KafkaProducer<String, String> early = producer(kafka.getBootstrapServers());
      early.send(new ProducerRecord<>(topic, "x")).get(60, TimeUnit.SECONDS);
      // Whatever carries the client's connection (docker-proxy, NAT), its SYN reaches the
      // broker's namespace with timestamps, and every connection scales its window.
      String before = brokerConnections(kafka);
      assertThat(count(before, " rtt:")).isPositive();
      assertThat(count(before, "wscale:")).isEqualTo(count(before, " rtt:"));

      NetworkFault lost = faults.loseWindowScaling();
      try (early;
          KafkaProducer<String, String> during = producer(kafka.getBootstrapServers())) {
        during.send(new ProducerRecord<>(topic, "y")).get(60, TimeUnit.SECONDS);
        String connections = brokerConnections(kafka);
        System.out.print(connections);
        // The new producer's connections came through a cookie without timestamps.
        assertThat(count(connections, "wscale:")).isLessThan(count(connections, " rtt:"));
      }
      lost.close();

      NetworkFault slow = faults.slowLink("8mbit");
      assertThat(slow.description()).contains("CONTAINER");
      produce(kafka.getBootstrapServers(), topic);
      assertThat(faults.linkStatistics()).contains("tbf", "rate 8Mbit");
    }
  }

  /**
   * How often {@code field} appears in {@code ss -ti} output: {@code " rtt:"} once a connection.
   */
  private static long count(String ss, String field) {
    return ss.split(java.util.regex.Pattern.quote(field), -1).length - 1;
  }

  @Test
  void aRestartKeepsTheBrokerReachableOnlyOnAFixedHostPort() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (KafkaContainer kafka = new KafkaContainer(image("apache/kafka"))) {
      kafka.setPortBindings(List.of(port + ":9092"));
      kafka.start();
      String topic = "restart-" + UUID.randomUUID();
      produce(kafka.getBootstrapServers(), topic);
      try (Admin admin = admin(kafka.getBootstrapServers())) {
        BrokerRestart restart = KafkaFaults.on(kafka).restartWithPreferredLeaderElection(admin);
        System.out.println("[faultline-it] " + restart);
        // One broker: it leads everything again as soon as it is back, nothing to elect.
        assertThat(restart.elected()).isEmpty();
      }
      produce(kafka.getBootstrapServers(), topic);
    }
  }

  @Test
  void aRestartOnARandomHostPortSaysWhyTheBrokerIsLost() throws Exception {
    try (KafkaContainer kafka = new KafkaContainer(image("apache/kafka"))) {
      kafka.start();
      Admin admin = admin(kafka.getBootstrapServers());
      try {
        assertThatThrownBy(
                () ->
                    KafkaFaults.on(kafka)
                        .restartWithPreferredLeaderElection(admin, Duration.ofSeconds(15)))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("preferred leader election not done after 15 s")
            .hasMessageContaining("host ports changed with the restart")
            .hasMessageContaining("setPortBindings");
      } finally {
        // Its broker's host port is gone: kafka-clients 3.9's close() waited five minutes for the
        // calls still trying it (the compatibility run).
        admin.close(Duration.ofSeconds(5));
      }
    }
  }

  @Test
  void confluentKafkaContainerGetsASmallListenBacklog() throws Exception {
    try (ConfluentKafkaContainer kafka =
        KafkaFaults.smallListenBacklog(
            new ConfluentKafkaContainer(image("confluentinc/cp-kafka")), 8)) {
      kafka.start();
      produce(kafka.getBootstrapServers(), "backlog-" + UUID.randomUUID());
      String listeners =
          kafka.execInContainer("ss", "-ltnH", "sport", "= :9092").getStdout().trim();
      assertThat(listeners.split("\\s+")[2]).as("backlog of %s", listeners).isEqualTo("8");
    }
  }

  private static Admin admin(String bootstrap) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
            "5000",
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            "10000"));
  }
}
