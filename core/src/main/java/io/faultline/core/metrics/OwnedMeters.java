package io.faultline.core.metrics;

import io.faultline.core.Loggers;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The meters one binder registered, so its close removes exactly those. A registration whose id
 * another instance registered first is not this binder's: Micrometer hands back the other one's
 * meter (reporting the other one's values), so it is logged once, with the fix (distinct {@code
 * tags}), and left alone on close.
 */
public final class OwnedMeters {

  private static final System.Logger LOG = Loggers.get(OwnedMeters.class.getName());

  private final String owner;
  private final List<Map.Entry<MeterRegistry, Meter>> owned = new ArrayList<>();
  private boolean warned;

  /** Meters of {@code owner}, as named in the warning (e.g. {@code "a jOOQ guard"}). */
  public OwnedMeters(String owner) {
    this.owner = Objects.requireNonNull(owner, "owner");
  }

  /**
   * Registers through {@code registration} and keeps the meter if it is new to {@code registry}.
   */
  public synchronized <M extends Meter> M register(
      MeterRegistry registry, String name, Function<MeterRegistry, M> registration) {
    Collection<Meter> existing = registry.find(name).meters();
    M meter = registration.apply(registry);
    if (existing.contains(meter)) {
      if (!warned) {
        warned = true;
        LOG.log(
            System.Logger.Level.WARNING,
            "faultline: {0} found its meter {1} already registered by another instance; this"
                + " instance''s values are not reported. Give each instance distinct tags(...),"
                + " e.g. tags(\"db\", \"orders\").",
            owner,
            meter.getId());
      }
    } else {
      owned.add(Map.entry(registry, meter));
    }
    return meter;
  }

  /** Whether a registration found its id taken by another instance. */
  public synchronized boolean collided() {
    return warned;
  }

  /** Removes every meter kept, from the registry it was registered on. */
  public synchronized void removeAll() {
    owned.forEach(e -> e.getKey().remove(e.getValue()));
    owned.clear();
  }
}
