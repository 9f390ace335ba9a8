package io.faultline.core.net.churn;

import io.faultline.core.metrics.CommonTags;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code faultline.net.connects{destination}} and {@code faultline.net.connect.rate{destination}}.
 * Destinations appear as they are first seen: call {@link #refresh()} after each {@link
 * ChurnMonitor#evaluate()} (never from the connect path). {@link #close()} removes every meter.
 */
public final class ChurnMetrics implements MeterBinder, AutoCloseable {

  private final ConnectChurn churn;
  private final ChurnMonitor monitor;
  private final Tags tags;
  private final Map<MeterRegistry, Set<String>> bound = new LinkedHashMap<>();
  private final List<Map.Entry<MeterRegistry, Meter>> meters = new ArrayList<>();

  /** Meters over {@code churn}'s counts and {@code monitor}'s rates. */
  public ChurnMetrics(ConnectChurn churn, ChurnMonitor monitor) {
    this(churn, monitor, Tags.empty());
  }

  /**
   * Meters over {@code churn}'s counts and {@code monitor}'s rates, each also tagged with {@code
   * tags}.
   *
   * @throws IllegalArgumentException when a key of {@code tags} is {@code destination}
   */
  public ChurnMetrics(ConnectChurn churn, ChurnMonitor monitor, Iterable<Tag> tags) {
    this.churn = Objects.requireNonNull(churn, "churn");
    this.monitor = Objects.requireNonNull(monitor, "monitor");
    this.tags =
        CommonTags.refuseDeclared(
            "tags",
            CommonTags.of("tags", tags),
            List.of(ChurnCatalog.CONNECTS, ChurnCatalog.CONNECT_RATE));
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    bound.putIfAbsent(registry, new HashSet<>());
    refresh();
  }

  /** Registers the meters of destinations seen since the last call, on every bound registry. */
  public synchronized void refresh() {
    for (Map.Entry<MeterRegistry, Set<String>> entry : bound.entrySet()) {
      MeterRegistry registry = entry.getKey();
      for (String destination : churn.totals().keySet()) {
        if (entry.getValue().add(destination)) {
          keep(
              registry,
              ChurnCatalog.CONNECTS
                  .functionCounter(churn, c -> c.total(destination))
                  .tags(ChurnCatalog.CONNECTS.tags(destination))
                  .tags(tags)
                  .register(registry));
          keep(
              registry,
              ChurnCatalog.CONNECT_RATE
                  .gauge(monitor, m -> m.rate(destination))
                  .tags(ChurnCatalog.CONNECT_RATE.tags(destination))
                  .tags(tags)
                  .register(registry));
        }
      }
    }
  }

  private void keep(MeterRegistry registry, Meter meter) {
    meters.add(Map.entry(registry, meter));
  }

  /** Removes every meter this binder registered, from every registry it was bound to. */
  @Override
  public synchronized void close() {
    meters.forEach(e -> e.getKey().remove(e.getValue()));
    meters.clear();
    bound.clear();
  }
}
