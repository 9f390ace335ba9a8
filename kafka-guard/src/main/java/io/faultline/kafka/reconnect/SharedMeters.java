package io.faultline.kafka.reconnect;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * How many listeners hold each meter of a registry. Listeners of clients of one type share their
 * meters (same name and tags), so one closing must not remove what the others still record into;
 * the last one to let go removes it.
 */
final class SharedMeters {

  private static final Map<MeterRegistry, Map<Meter.Id, Integer>> HOLDERS = new WeakHashMap<>();

  private SharedMeters() {}

  /** Records that one more listener holds {@code id} on {@code registry}. */
  static synchronized void hold(MeterRegistry registry, Meter.Id id) {
    HOLDERS.computeIfAbsent(registry, r -> new HashMap<>()).merge(id, 1, Integer::sum);
  }

  /** Lets go of {@code id}, removing it from {@code registry} when no listener holds it. */
  static synchronized void release(MeterRegistry registry, Meter.Id id) {
    Map<Meter.Id, Integer> held = HOLDERS.get(registry);
    Integer left = held == null ? null : held.computeIfPresent(id, (k, n) -> n > 1 ? n - 1 : null);
    if (left == null) {
      registry.remove(id);
    }
    if (held != null && held.isEmpty()) {
      HOLDERS.remove(registry);
    }
  }
}
