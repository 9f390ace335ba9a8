package io.faultline.agent.kafka;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The timeouts each kafka-clients {@code NetworkClient} was built with ({@code request.timeout.ms},
 * {@code delivery.timeout.ms}, {@code max.poll.interval.ms}), remembered when {@code
 * ClientUtils.createNetworkClient} returns and read when the client's reconnect gate is made, so
 * the gate's window is capped by the client's actual settings rather than Kafka's defaults.
 *
 * <p>Keyed weakly by the {@code NetworkClient} (which does not override {@code equals}, so the key
 * is its identity); a client the application drops is forgotten with it. Thread-safe: the async
 * consumer builds its {@code NetworkClient} on its own background thread.
 */
final class ClientTimeoutConfigs {

  /** The configuration keys the gate's cap reads; nothing else is kept. */
  static final List<String> KEYS =
      List.of("request.timeout.ms", "delivery.timeout.ms", "max.poll.interval.ms");

  private final Map<Object, Map<String, Object>> byClient =
      Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * Remembers the timeouts among {@code values} (a client configuration's parsed values, defaults
   * included) for {@code networkClient}. Anything that is not a map is ignored.
   */
  void remember(Object networkClient, Object values) {
    if (networkClient == null || !(values instanceof Map<?, ?> map)) {
      return;
    }
    Map<String, Object> timeouts = new HashMap<>();
    for (String key : KEYS) {
      Object v = map.get(key);
      if (v != null) {
        timeouts.put(key, v);
      }
    }
    byClient.put(networkClient, Map.copyOf(timeouts));
  }

  /** The timeouts remembered for {@code networkClient}; empty (Kafka's defaults) if none. */
  Map<String, Object> of(Object networkClient) {
    Map<String, Object> timeouts = networkClient == null ? null : byClient.get(networkClient);
    return timeouts == null ? Map.of() : timeouts;
  }
}
