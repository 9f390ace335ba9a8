package io.faultline.core.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A meter registry that may not exist yet. The agent creates its registry only once the
 * application's start-up has settled: Micrometer's classes would otherwise load into every
 * service's start. Code that registers meters while the service starts hands that work to {@link
 * #whenReady}, which runs it at once when the registry exists and otherwise queues it, in order,
 * for when it does.
 *
 * <p>An action may run on another thread than the one that handed it over: whatever it shares with
 * that thread needs the usual care.
 */
@FunctionalInterface
public interface LateRegistry {

  /**
   * Runs {@code action} with the registry: now if it exists, otherwise once it does, after every
   * action handed over before this one.
   */
  void whenReady(Consumer<MeterRegistry> action);

  /** A registry that already exists: every action runs at once, on the caller's thread. */
  static LateRegistry of(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    return action -> action.accept(registry);
  }
}
