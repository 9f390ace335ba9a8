package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A real Kafka broker (the suite's broker jars, KRaft, one node that is also the controller,
 * formatted with {@code StorageTool}) started with and without the agent: with it, the broker must
 * log that it started within a bound close to its start without it (the broker's {@code main} loads
 * kafka-clients' and its own classes while the agent installs), then create a topic and serve a
 * producer and a consumer; the agent must have timed the broker's own client requests.
 */
@Tag("real-world")
class KafkaBrokerWithAgentTest {

  private static final String STARTED = "Kafka Server started";

  @Test
  void startsAsFastAsWithoutTheAgentAndServesATopic() throws Exception {
    double without;
    try (Broker broker = Broker.start("without", null)) {
      without = broker.child.awaitOutput(STARTED, Duration.ofSeconds(120));
      broker.createProduceConsume();
    }
    int port = Http.freePort();
    try (Broker broker = Broker.start("with", "prometheus.port=" + port)) {
      double with =
          broker.child.awaitOutput(
              STARTED, StartupChecks.bound("kafka broker (KRaft, 1 node)", without));
      StartupChecks.report("kafka broker (KRaft, 1 node)", without, with);
      broker.createProduceConsume();
      PrometheusText metrics =
          StartupChecks.awaitMetrics(
              port,
              m -> m.sum("faultline_kafka_request_phase_seconds_count", Map.of()) > 0,
              "the broker's own client requests timed",
              Duration.ofSeconds(30));
      assertThat(metrics.sum("faultline_agent_errors_total", Map.of()))
          .as("suppressed agent errors")
          .isZero();
      assertThat(broker.child.output()).doesNotContain(ChildJvm.ERRORS_AT_EXIT);
      StartupChecks.assertStartupBlockedBelowATenth(metrics);
    }
  }

  @Test
  void aTwoNodeQuorumStartsAsFastAsWithoutTheAgentAndReplicates() throws Exception {
    double without = portsAllowing(() -> startQuorum("quorum-without", null, null));
    portsAllowing(
        () -> startQuorum("quorum-with", new int[] {Http.freePort(), Http.freePort()}, without));
  }

  /** A start that picks its ports anew each time. */
  @FunctionalInterface
  private interface QuorumStart {
    double run() throws Exception;
  }

  /**
   * Runs {@code start}, again with new ports (up to three times) when a node could not bind one: a
   * port found free a moment ago may be taken by another process before the node binds it.
   */
  private static double portsAllowing(QuorumStart start) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return start.run();
      } catch (AssertionError e) {
        if (attempt == 3 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
          throw e;
        }
        System.out.println("[faultline-it] a quorum port was taken meanwhile; new ports");
      }
    }
  }

  /**
   * Starts two nodes that are brokers and controllers of one cluster (replica fetchers, controller
   * channels between them), waits for both to log that they started, creates a topic replicated to
   * both and serves it; returns the seconds until the later node started.
   */
  private static double startQuorum(String name, int[] agentPorts, Double withoutSeconds)
      throws Exception {
    String clusterId = Uuid.randomUuid().toString();
    int[] brokerPorts = {Http.freePort(), Http.freePort()};
    int[] controllerPorts = {Http.freePort(), Http.freePort()};
    String voters = "1@127.0.0.1:" + controllerPorts[0] + ",2@127.0.0.1:" + controllerPorts[1];
    try (Broker one =
            Broker.start(
                name + "-1",
                agentPorts == null ? null : "prometheus.port=" + agentPorts[0],
                new Node(1, clusterId, voters, brokerPorts[0], controllerPorts[0]));
        Broker two =
            Broker.start(
                name + "-2",
                agentPorts == null ? null : "prometheus.port=" + agentPorts[1],
                new Node(2, clusterId, voters, brokerPorts[1], controllerPorts[1]))) {
      Duration timeout =
          withoutSeconds == null
              ? Duration.ofSeconds(120)
              : StartupChecks.bound("kafka brokers (KRaft, 2 nodes)", withoutSeconds);
      double started =
          Math.max(
              one.child.awaitOutput(STARTED, timeout), two.child.awaitOutput(STARTED, timeout));
      if (withoutSeconds != null) {
        StartupChecks.report("kafka brokers (KRaft, 2 nodes)", withoutSeconds, started);
      }
      one.createProduceConsume((short) 2);
      if (agentPorts != null) {
        for (int port : agentPorts) {
          PrometheusText metrics =
              StartupChecks.awaitMetrics(
                  port,
                  m ->
                      m.sum(
                              "faultline_kafka_request_phase_seconds_count",
                              Map.of("api", "fetch", "client_type", "replica_fetcher"))
                          > 0,
                  "the replica fetcher's requests timed, labelled as the replica fetcher's",
                  Duration.ofSeconds(30));
          // The node's own clients by role: its Raft client and its channel to the controller
          // are apart from the replica fetcher, though they reach the same node ids.
          assertThat(
                  metrics.sum(
                      "faultline_kafka_request_phase_seconds_count", Map.of("client_type", "raft")))
              .as("the Raft client's requests")
              .isPositive();
          assertThat(
                  metrics.sum(
                      "faultline_kafka_request_phase_seconds_count",
                      Map.of("client_type", "controller_channel")))
              .as("the channel to the controller's requests")
              .isPositive();
          assertThat(
                  metrics.sum(
                      "faultline_kafka_request_phase_seconds_count",
                      Map.of("client_type", "other")))
              .as("requests of clients with no role")
              .isZero();
          assertThat(metrics.sum("faultline_agent_errors_total", Map.of()))
              .as("suppressed agent errors")
              .isZero();
        }
        assertThat(one.child.output() + two.child.output()).doesNotContain(ChildJvm.ERRORS_AT_EXIT);
      }
      return started;
    }
  }

  /** One node's identity and ports. */
  private record Node(int id, String clusterId, String voters, int brokerPort, int controllerPort) {

    static Node single() {
      int controllerPort = Http.freePort();
      return new Node(
          1,
          Uuid.randomUuid().toString(),
          "1@127.0.0.1:" + controllerPort,
          Http.freePort(),
          controllerPort);
    }
  }

  /** One broker child and its address. */
  private static final class Broker implements AutoCloseable {
    final WatchedChild child;
    final String bootstrap;

    private Broker(WatchedChild child, String bootstrap) {
      this.child = child;
      this.bootstrap = bootstrap;
    }

    /** Formats a fresh data folder and starts {@code kafka.Kafka}, with the agent when asked. */
    static Broker start(String name, String agentArgs) throws Exception {
      return start(name, agentArgs, Node.single());
    }

    /** The same, as {@code node} of a cluster. */
    static Broker start(String name, String agentArgs, Node node) throws Exception {
      Path dir = TestPaths.workDir("broker-agent-" + name);
      int brokerPort = node.brokerPort();
      int controllerPort = node.controllerPort();
      Path props = dir.resolve("server.properties");
      Files.writeString(
          props,
          String.join(
              "\n",
              "process.roles=broker,controller",
              "node.id=" + node.id(),
              "controller.quorum.voters=" + node.voters(),
              "listeners=PLAINTEXT://127.0.0.1:"
                  + brokerPort
                  + ",CONTROLLER://127.0.0.1:"
                  + controllerPort,
              "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
              "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
              "controller.listener.names=CONTROLLER",
              "inter.broker.listener.name=PLAINTEXT",
              "log.dirs=" + dir.resolve("data"),
              "num.partitions=1",
              "offsets.topic.replication.factor=1",
              "transaction.state.log.replication.factor=1",
              "transaction.state.log.min.isr=1",
              "share.coordinator.state.topic.replication.factor=1",
              "share.coordinator.state.topic.min.isr=1",
              "group.initial.rebalance.delay.ms=0",
              ""));
      ChildJvm.Result format =
          broker(false)
              .run(
                  120,
                  "kafka.tools.StorageTool",
                  "format",
                  "-t",
                  node.clusterId(),
                  "-c",
                  props.toString());
      format.assertCleanExit();
      ChildJvm jvm = broker(agentArgs != null);
      if (agentArgs != null) {
        jvm.agentArgs(agentArgs);
      }
      return new Broker(
          WatchedChild.start("kafka-broker-" + name, jvm, "kafka.Kafka", props.toString()),
          "127.0.0.1:" + brokerPort);
    }

    private static ChildJvm broker(boolean withAgent) {
      Path docker = TestPaths.kafkaDockerDir();
      ChildJvm jvm =
          ChildJvm.on(Jdk.current())
              .option("-Xms256m")
              .option("-Xmx512m")
              .option("-XX:+UseSerialGC")
              .option("-Dlog4j2.configurationFile=" + docker.resolve("log4j2.properties"))
              .classPath(docker.resolve("target/broker-libs").resolve("*"));
      return withAgent ? jvm : jvm.withoutAgent();
    }

    /** Creates a topic (must not time out), produces 10 records and consumes them. */
    void createProduceConsume() throws Exception {
      createProduceConsume((short) 1);
    }

    /**
     * The same, the topic replicated to {@code replicas} nodes, acknowledged by all of them, with
     * as many partitions: each node leads one and follows the others (a replica fetcher on every
     * node).
     */
    void createProduceConsume(short replicas) throws Exception {
      String topic = "broker-agent-" + Uuid.randomUuid().toString().substring(0, 8);
      Properties admin = new Properties();
      admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      try (Admin a = Admin.create(admin)) {
        a.createTopics(List.of(new NewTopic(topic, replicas, replicas)))
            .all()
            .get(30, TimeUnit.SECONDS);
      }
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
        for (int i = 0; i < 10; i++) {
          producer.send(new ProducerRecord<>(topic, "record " + i)).get(30, TimeUnit.SECONDS);
        }
      }
      Properties c = new Properties();
      c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      c.put(ConsumerConfig.GROUP_ID_CONFIG, topic);
      c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      List<String> read = new ArrayList<>();
      try (KafkaConsumer<String, String> consumer =
          new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
        consumer.subscribe(List.of(topic));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (read.size() < 10 && System.nanoTime() < deadline) {
          consumer.poll(Duration.ofMillis(500)).forEach(r -> read.add(r.value()));
        }
      }
      assertThat(read).as("records consumed; broker output:%n%s", child.output()).hasSize(10);
    }

    @Override
    public void close() {
      child.close();
    }
  }
}
