package io.faultline.it.servers;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/** A running Kafka cluster of 1–3 KRaft nodes, each broker and controller. */
public interface KafkaCluster extends AutoCloseable {

  /** {@code host:port,...} of every node, for {@code bootstrap.servers}. */
  String bootstrapServers();

  /** The nodes, ordered by id (1, 2, 3). */
  List<KafkaNode> nodes();

  /** The node with this id. */
  default KafkaNode node(int id) {
    return nodes().stream()
        .filter(n -> n.id() == id)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no node " + id));
  }

  /** The common client settings: bootstrap servers plus {@code extra}. */
  default Properties clientProperties(Map<String, Object> extra) {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    props.putAll(extra);
    return props;
  }

  /** Creates a topic, replicated to every node, and waits until it exists. */
  default void createTopic(String name, int partitions) {
    createTopic(name, partitions, Map.of());
  }

  /**
   * Creates a topic with topic-level {@code configs} ({@code retention.bytes}, ...), replicated to
   * every node, and waits until it exists.
   */
  default void createTopic(String name, int partitions, Map<String, String> configs) {
    try (Admin admin = Admin.create(clientProperties(Map.of()))) {
      short replicas = (short) nodes().size();
      admin
          .createTopics(List.of(new NewTopic(name, partitions, replicas).configs(configs)))
          .all()
          .get(60, TimeUnit.SECONDS);
      awaitLeadersOnEveryNode(name, partitions);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("could not create topic " + name, e);
    }
  }

  /**
   * Waits until every node's metadata has a leader for every partition of {@code name}: a topic
   * created through one node reaches the others' metadata a moment later, and a client that asks
   * another node first gets {@code UnknownTopicOrPartitionException} (seen in a 3-node run).
   */
  private void awaitLeadersOnEveryNode(String name, int partitions)
      throws InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (KafkaNode node : nodes()) {
      Map<String, Object> config =
          Map.of(
              AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
              node.address().getHostString() + ":" + node.address().getPort());
      try (Admin one = Admin.create(config)) {
        while (true) {
          try {
            var description =
                one.describeTopics(List.of(name))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(name);
            if (description.partitions().size() == partitions
                && description.partitions().stream().allMatch(p -> p.leader() != null)) {
              break;
            }
          } catch (ExecutionException notYet) {
            // the node does not know the topic yet
          }
          if (System.nanoTime() > deadline) {
            throw new TimeoutException("topic " + name + " has no leaders on " + node.address());
          }
          Thread.sleep(100);
        }
      }
    }
  }

  /** Stops every node and releases what the cluster holds. */
  @Override
  void close();
}
