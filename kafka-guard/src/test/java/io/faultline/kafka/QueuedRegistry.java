package io.faultline.kafka;

import io.faultline.core.metrics.LateRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A {@link LateRegistry} whose registry a test creates when it chooses ({@link #open}). */
public final class QueuedRegistry implements LateRegistry {

  private List<Consumer<MeterRegistry>> pending = new ArrayList<>();
  private MeterRegistry registry;

  @Override
  public void whenReady(Consumer<MeterRegistry> action) {
    if (registry == null) {
      pending.add(action);
    } else {
      action.accept(registry);
    }
  }

  /** Makes {@code registry} the one that exists now, running what waited for it. */
  public void open(MeterRegistry registry) {
    this.registry = registry;
    List<Consumer<MeterRegistry>> waited = pending;
    pending = new ArrayList<>();
    waited.forEach(action -> action.accept(registry));
  }
}
