package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

/**
 * A real Kafka broker as a child JVM of the test: the suite's broker jars, KRaft, a node that is
 * broker and controller at once, formatted with {@code StorageTool}, with the agent when asked.
 */
final class KafkaBrokerChild implements AutoCloseable {

  /** The line the broker logs once it serves. */
  static final String STARTED = "Kafka Server started";

  /**
   * One node's identity and ports.
   *
   * @param host the address its client listener binds and advertises (the controller listener stays
   *     on loopback)
   */
  record Node(
      int id, String clusterId, String voters, String host, int brokerPort, int controllerPort) {

    /** A cluster of one on loopback, on ports free a moment ago. */
    static Node single() {
      return single("127.0.0.1");
    }

    /** A cluster of one whose client listener is on {@code host}. */
    static Node single(String host) {
      int controllerPort = Http.freePort();
      return new Node(
          1,
          Uuid.randomUuid().toString(),
          "1@127.0.0.1:" + controllerPort,
          host,
          Http.freePort(),
          controllerPort);
    }
  }

  final WatchedChild child;
  final String bootstrap;

  private KafkaBrokerChild(WatchedChild child, String bootstrap) {
    this.child = child;
    this.bootstrap = bootstrap;
  }

  /** Formats a fresh data folder and starts {@code kafka.Kafka}, with the agent when asked. */
  static KafkaBrokerChild start(String name, String agentArgs) throws Exception {
    return start(name, agentArgs, Node.single());
  }

  /** The same, as {@code node} of a cluster. */
  static KafkaBrokerChild start(String name, String agentArgs, Node node) throws Exception {
    return start(name, agentArgs, node, new String[0]);
  }

  /**
   * The same, the broker run through {@code prefix} (e.g. {@code ip netns exec ...}), which execs
   * the rest.
   */
  static KafkaBrokerChild start(String name, String agentArgs, Node node, String... prefix)
      throws Exception {
    return start(name, agentArgs, node, Map.of(), prefix);
  }

  /**
   * The same, with {@code overrides} replacing or adding to the broker's properties (e.g. more
   * listeners, a smaller backlog).
   */
  static KafkaBrokerChild start(
      String name, String agentArgs, Node node, Map<String, String> overrides, String... prefix)
      throws Exception {
    return launch(name, agentArgs, node, overrides, false, prefix);
  }

  /**
   * A broker of one on loopback compiled as in production (C2), for throughput figures: the suite's
   * children stop at C1.
   */
  static KafkaBrokerChild startForThroughput(String name, String agentArgs) throws Exception {
    return launch(name, agentArgs, Node.single(), Map.of(), true);
  }

  private static KafkaBrokerChild launch(
      String name,
      String agentArgs,
      Node node,
      Map<String, String> overrides,
      boolean fullCompiler,
      String... prefix)
      throws Exception {
    Path dir = TestPaths.workDir("broker-agent-" + name);
    Path props = dir.resolve("server.properties");
    String client = node.host() + ":" + node.brokerPort();
    Map<String, String> p = new LinkedHashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", Integer.toString(node.id()));
    p.put("controller.quorum.voters", node.voters());
    p.put(
        "listeners", "PLAINTEXT://" + client + ",CONTROLLER://127.0.0.1:" + node.controllerPort());
    p.put("advertised.listeners", "PLAINTEXT://" + client);
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", dir.resolve("data").toString());
    p.put("num.partitions", "1");
    p.put("offsets.topic.replication.factor", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.putAll(overrides);
    StringBuilder text = new StringBuilder();
    p.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    Files.writeString(props, text);
    ChildJvm.Result format =
        jvm(false)
            .run(
                120,
                "kafka.tools.StorageTool",
                "format",
                "-t",
                node.clusterId(),
                "-c",
                props.toString());
    format.assertCleanExit();
    ChildJvm jvm = jvm(agentArgs != null).prefix(prefix);
    if (fullCompiler) {
      jvm.fullCompiler();
    }
    if (agentArgs != null) {
      jvm.agentArgs(agentArgs);
    }
    return new KafkaBrokerChild(
        WatchedChild.start("kafka-broker-" + name, jvm, "kafka.Kafka", props.toString()), client);
  }

  private static ChildJvm jvm(boolean withAgent) {
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

  /** Seconds from the start until the broker serves, failing after {@code timeout}. */
  double awaitStarted(Duration timeout) {
    return child.awaitOutput(STARTED, timeout);
  }

  /** Creates a topic (must not time out), produces 10 records and consumes them. */
  void createProduceConsume() throws Exception {
    createProduceConsume((short) 1);
  }

  /**
   * The same, the topic replicated to {@code replicas} nodes, acknowledged by all of them, with as
   * many partitions: each node leads one and follows the others (a replica fetcher on every node).
   */
  void createProduceConsume(short replicas) throws Exception {
    String topic = "broker-agent-" + Uuid.randomUuid().toString().substring(0, 8);
    createTopic(topic, replicas);
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

  /** Creates {@code topic} with as many partitions as {@code replicas}; must not time out. */
  void createTopic(String topic, short replicas) throws Exception {
    Properties admin = new Properties();
    admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin a = Admin.create(admin)) {
      a.createTopics(List.of(new NewTopic(topic, replicas, replicas)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() {
    child.close();
  }
}
