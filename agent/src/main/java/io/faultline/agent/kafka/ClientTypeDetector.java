package io.faultline.agent.kafka;

import io.faultline.kafka.ClientType;
import java.lang.reflect.Field;

/**
 * Learns what kind of client owns a kafka-clients {@code Selector} from the metric group its
 * metrics are registered under ({@code producer-metrics}, {@code consumer-metrics}, {@code
 * admin-client-metrics}), read once per client. kafka-clients passes that prefix to every {@code
 * Selector} it builds, in 2.8 through 4.4, so this needs neither the client's configuration nor its
 * {@code LogContext} (which moved package in 4.4). A broker names its own clients' groups after
 * their role ({@code replica-fetcher}, {@code raft-channel}, {@code forwarding}, {@code heartbeat},
 * ...), and a Connect worker's group member after {@code connect}.
 */
final class ClientTypeDetector {

  /** The Selector's metric group is the prefix its owner passed plus this. */
  private static final String METRICS_SUFFIX = "-metrics";

  private ClientTypeDetector() {}

  /** The client type behind {@code selector}; {@link ClientType#OTHER} when it cannot tell. */
  static ClientType of(Object selector, String clientId) {
    String group = metricGroup(selector);
    if (group != null) {
      if (group.startsWith("producer")) {
        return ClientType.PRODUCER;
      }
      if (group.startsWith("consumer")) {
        return ClientType.CONSUMER;
      }
      if (group.startsWith("admin")) {
        return ClientType.ADMIN;
      }
      return brokerOrConnect(group);
    }
    // The default client ids: producer-N, consumer-<group>-N, adminclient-N.
    String id = clientId == null ? "" : clientId;
    if (id.startsWith("producer-")) {
      return ClientType.PRODUCER;
    }
    if (id.startsWith("consumer-")) {
      return ClientType.CONSUMER;
    }
    if (id.startsWith("adminclient-")) {
      return ClientType.ADMIN;
    }
    return ClientType.OTHER;
  }

  /** The role behind a broker's (or a Connect worker's) own metric group; OTHER if unknown. */
  static ClientType brokerOrConnect(String group) {
    String prefix =
        group.endsWith(METRICS_SUFFIX)
            ? group.substring(0, group.length() - METRICS_SUFFIX.length())
            : group;
    return switch (prefix) {
      case "replica-fetcher" -> ClientType.REPLICA_FETCHER;
      case "raft-channel" -> ClientType.RAFT;
      // NodeToControllerChannelManager's channels, and the controller's own in ZooKeeper mode.
      case "forwarding",
          "heartbeat",
          "registration",
          "alter-partition",
          "quorum",
          "controller-channel" ->
          ClientType.CONTROLLER_CHANNEL;
      case "txn-marker-channel", "AddPartitionsManager-channel" ->
          ClientType.TRANSACTION_COORDINATOR;
      case "connect" -> ClientType.CONNECT;
      default -> ClientType.OTHER;
    };
  }

  private static String metricGroup(Object selector) {
    try {
      Object sensors = read(selector, "sensors");
      Object group = sensors == null ? null : read(sensors, "metricGrpName");
      return group instanceof String s ? s : null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // a Selector without these fields: fall back to the client id
    }
  }

  private static Object read(Object target, String name) throws ReflectiveOperationException {
    Field field = target.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(target);
  }
}
