package io.faultline.examples.demo;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Two real Kafka brokers: node 1 (broker and KRaft controller) and node 2 (broker), so node 2 can
 * restart while the clients stay connected to node 1 — the situation of a rolling restart.
 */
final class KafkaCluster implements AutoCloseable {

  private final List<KafkaBroker> nodes;

  private KafkaCluster(List<KafkaBroker> nodes) {
    this.nodes = nodes;
  }

  static KafkaCluster create(DemoPaths paths, Path work, BrokerNamespace namespace) {
    boolean ns = namespace != null;
    int controller = ns ? 9093 : KafkaBroker.freePort();
    KafkaBroker one =
        KafkaBroker.create(
            paths, work, namespace, 1, ns ? 9092 : KafkaBroker.freePort(), controller);
    KafkaBroker two =
        KafkaBroker.create(
            paths, work, namespace, 2, ns ? 9094 : KafkaBroker.freePort(), controller);
    return new KafkaCluster(List.of(one, two));
  }

  /** Starts both nodes at once and waits until both serve. */
  void start(Consumer<String> tick) {
    nodes.forEach(KafkaBroker::launch);
    for (KafkaBroker node : nodes) {
      node.awaitStarted(tick);
    }
  }

  String bootstrapServers() {
    return nodes.stream().map(KafkaBroker::bootstrapServers).collect(Collectors.joining(","));
  }

  /** Node {@code id} (1 or 2). */
  KafkaBroker node(int id) {
    return nodes.get(id - 1);
  }

  List<Integer> ports() {
    return nodes.stream().map(KafkaBroker::port).toList();
  }

  @Override
  public void close() {
    // brokers first, the controller last, so the brokers' controlled shutdown can finish
    node(2).close();
    node(1).close();
  }
}
