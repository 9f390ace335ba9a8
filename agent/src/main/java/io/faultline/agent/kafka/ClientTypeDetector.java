package io.faultline.agent.kafka;

import io.faultline.kafka.ClientType;
import java.lang.reflect.Field;

/**
 * Learns what kind of client owns a kafka-clients {@code Selector} from the metric group its
 * metrics are registered under ({@code producer-metrics}, {@code consumer-metrics}, {@code
 * admin-client-metrics}), read once per client. kafka-clients passes that prefix to every {@code
 * Selector} it builds, in 2.8 through 4.4, so this needs neither the client's configuration nor its
 * {@code LogContext} (which moved package in 4.4).
 */
final class ClientTypeDetector {

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
      return ClientType.OTHER;
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
