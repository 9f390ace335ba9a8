package io.faultline.it.servers;

import com.github.dockerjava.api.DockerClient;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;

/**
 * A cluster of broker containers on a network of their own, reached at the containers' addresses.
 */
final class DockerKafkaCluster implements KafkaCluster {

  static final String STARTED = "Kafka Server started";
  private static final int BROKER_PORT = 9092;

  /** Remote JMX (no auth) of every broker container, at its own address. */
  static final int JMX_PORT = 9999;

  private final Network network;
  private final List<Node> nodes;

  DockerKafkaCluster(int size) {
    String image = LocalImages.kafka();
    this.network = Network.newNetwork();
    String voters =
        IntStream.rangeClosed(1, size)
            .mapToObj(i -> i + "@kafka-" + i + ":9093")
            .collect(Collectors.joining(","));
    List<Node> created = new ArrayList<>();
    for (int id = 1; id <= size; id++) {
      GenericContainer<?> container =
          new GenericContainer<>(image)
              .withNetwork(network)
              .withNetworkAliases("kafka-" + id)
              .withEnv("KAFKA_NODE_ID", Integer.toString(id))
              .withEnv("KAFKA_CONTROLLER_QUORUM_VOTERS", voters)
              .withEnv("KAFKA_JMX_PORT", Integer.toString(JMX_PORT))
              .withEnv(
                  "KAFKA_CFG_OFFSETS_TOPIC_REPLICATION_FACTOR", Integer.toString(Math.min(size, 3)))
              .withEnv(
                  "KAFKA_CFG_TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
                  Integer.toString(Math.min(size, 3)))
              .waitingFor(Wait.forLogMessage(".*" + STARTED + ".*", 1))
              .withStartupTimeout(Duration.ofMinutes(3));
      created.add(new Node(id, container));
    }
    this.nodes = List.copyOf(created);
    try {
      // A KRaft node waits for its quorum before it says "started": start them together.
      Startables.deepStart(nodes.stream().map(n -> n.container)).join();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  @Override
  public String bootstrapServers() {
    return nodes.stream()
        .map(n -> n.address().getHostString() + ":" + n.address().getPort())
        .collect(Collectors.joining(","));
  }

  @Override
  public List<KafkaNode> nodes() {
    return List.copyOf(nodes);
  }

  @Override
  public void close() {
    for (Node node : nodes) {
      try {
        node.container.stop();
      } catch (RuntimeException e) {
        System.err.println("[faultline-it] could not stop kafka-" + node.id + ": " + e);
      }
    }
    network.close();
  }

  private static final class Node implements KafkaNode {
    private final int id;
    private final GenericContainer<?> container;

    Node(int id, GenericContainer<?> container) {
      this.id = id;
      this.container = container;
    }

    @Override
    public int id() {
      return id;
    }

    @Override
    public InetSocketAddress address() {
      return new InetSocketAddress(ContainerAddresses.of(container), BROKER_PORT);
    }

    @Override
    public void stop() {
      docker().stopContainerCmd(container.getContainerId()).withTimeout(60).exec();
    }

    @Override
    public void kill() {
      // docker kill sends SIGKILL to the container's init, the broker's JVM.
      docker().killContainerCmd(container.getContainerId()).withSignal("KILL").exec();
    }

    @Override
    public void start() {
      int before = ContainerLogs.count(container, STARTED);
      docker().startContainerCmd(container.getContainerId()).exec();
      ContainerLogs.awaitCount(container, STARTED, before + 1, Duration.ofMinutes(2));
    }

    @Override
    public void start(BeforeServing beforeServing) throws Exception {
      int before = ContainerLogs.count(container, STARTED);
      docker().startContainerCmd(container.getContainerId()).exec();
      // The container's init (the broker's JVM) runs; its listener opens seconds later.
      beforeServing.run();
      ContainerLogs.awaitCount(container, STARTED, before + 1, Duration.ofMinutes(2));
    }

    @Override
    public void pause() {
      docker().pauseContainerCmd(container.getContainerId()).exec();
    }

    @Override
    public void unpause() {
      docker().unpauseContainerCmd(container.getContainerId()).exec();
    }

    @Override
    public String readProcFile(String path) {
      return ContainerExec.run(container, "cat", path);
    }

    @Override
    public boolean isContainer() {
      return true;
    }

    @Override
    public java.util.Optional<InetSocketAddress> jmxAddress() {
      return java.util.Optional.of(
          new InetSocketAddress(ContainerAddresses.of(container), JMX_PORT));
    }

    @Override
    public java.util.OptionalLong networkNamespacePid() {
      Long pid =
          docker().inspectContainerCmd(container.getContainerId()).exec().getState().getPidLong();
      return pid == null || pid == 0
          ? java.util.OptionalLong.empty()
          : java.util.OptionalLong.of(pid);
    }

    @Override
    public List<ProcessHandle> processes() {
      return networkNamespacePid().stream()
          .boxed()
          .flatMap(pid -> ProcessHandle.of(pid).stream())
          .flatMap(init -> Stream.concat(Stream.of(init), init.descendants()))
          .toList();
    }

    private static DockerClient docker() {
      return DockerClientFactory.instance().client();
    }
  }
}
