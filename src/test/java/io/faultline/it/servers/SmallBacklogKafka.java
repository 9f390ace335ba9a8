package io.faultline.it.servers;

import com.github.dockerjava.api.DockerClient;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;

/**
 * A KRaft cluster of broker containers whose listen queues are small on purpose, for the
 * reconnect-storm lab: each broker's {@code socket.listen.backlog.size} and its network namespace's
 * {@code net.core.somaxconn} and {@code net.ipv4.tcp_max_syn_backlog} are all {@code backlog}, with
 * SYN cookies on (the kernel default), so a burst of connections overflows the SYN and accept
 * queues the way the LINE Kafka incident describes. The namespace's TCP counters are read from the
 * host through the broker process's {@code /proc/<pid>/net/...}, cheap enough to sample every 10
 * ms.
 */
public final class SmallBacklogKafka implements AutoCloseable {

  private static final int BROKER_PORT = 9092;

  private final Network network;
  private final List<GenericContainer<?>> containers = new ArrayList<>();

  /** Starts {@code size} nodes (3 keeps a KRaft quorum while one restarts). */
  public SmallBacklogKafka(int size, int backlog) {
    String image = LocalImages.kafka();
    this.network = Network.newNetwork();
    String voters =
        IntStream.rangeClosed(1, size)
            .mapToObj(i -> i + "@kafka-" + i + ":9093")
            .collect(Collectors.joining(","));
    Map<String, String> sysctls =
        Map.of(
            "net.core.somaxconn", Integer.toString(backlog),
            "net.ipv4.tcp_max_syn_backlog", Integer.toString(backlog),
            "net.ipv4.tcp_syncookies", "1");
    for (int id = 1; id <= size; id++) {
      containers.add(
          new GenericContainer<>(image)
              .withNetwork(network)
              .withNetworkAliases("kafka-" + id)
              .withEnv("KAFKA_NODE_ID", Integer.toString(id))
              .withEnv("KAFKA_CONTROLLER_QUORUM_VOTERS", voters)
              .withEnv("KAFKA_CFG_SOCKET_LISTEN_BACKLOG_SIZE", Integer.toString(backlog))
              // The lab elects the preferred leader itself; the periodic automatic rebalance
              // would move leadership back at a moment of its own and spoil the measurement.
              .withEnv("KAFKA_CFG_AUTO_LEADER_REBALANCE_ENABLE", "false")
              .withEnv("KAFKA_CFG_OFFSETS_TOPIC_REPLICATION_FACTOR", Integer.toString(size))
              .withEnv("KAFKA_HEAP_OPTS", "-Xms256m -Xmx768m")
              .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withSysctls(sysctls))
              .waitingFor(Wait.forLogMessage(".*" + DockerKafkaCluster.STARTED + ".*", 1))
              .withStartupTimeout(Duration.ofMinutes(3)));
    }
    try {
      Startables.deepStart(containers.stream()).join();
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The client address of node {@code id} (1-based), read fresh: a restart may change it. */
  public InetSocketAddress address(int id) {
    return new InetSocketAddress(ContainerAddresses.of(container(id)), BROKER_PORT);
  }

  /** {@code host:port} of node {@code id}. */
  public String bootstrap(int id) {
    InetSocketAddress a = address(id);
    return a.getHostString() + ":" + a.getPort();
  }

  /** {@code /proc/<broker pid>/net/<file>} on the host: the node's network namespace's counters. */
  public Path procNet(int id, String file) {
    Long pid =
        docker().inspectContainerCmd(container(id).getContainerId()).exec().getState().getPidLong();
    if (pid == null || pid <= 0) {
      throw new IllegalStateException("kafka-" + id + " is not running");
    }
    return Path.of("/proc", Long.toString(pid), "net", file);
  }

  /** Stops node {@code id} (controlled shutdown) and starts it again; returns once it is up. */
  public void restart(int id) {
    GenericContainer<?> c = container(id);
    int before = ContainerLogs.count(c, DockerKafkaCluster.STARTED);
    docker().stopContainerCmd(c.getContainerId()).withTimeout(60).exec();
    docker().startContainerCmd(c.getContainerId()).exec();
    ContainerLogs.awaitCount(c, DockerKafkaCluster.STARTED, before + 1, Duration.ofMinutes(2));
  }

  /** Node {@code id}'s container (1-based), for faults made on it. */
  public GenericContainer<?> container(int id) {
    return containers.get(id - 1);
  }

  @Override
  public void close() {
    for (GenericContainer<?> c : containers) {
      try {
        c.stop();
      } catch (RuntimeException e) {
        System.err.println("[faultline-it] could not stop " + c.getContainerName() + ": " + e);
      }
    }
    network.close();
  }

  private static DockerClient docker() {
    return DockerClientFactory.instance().client();
  }
}
