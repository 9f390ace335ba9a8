package io.faultline.core.net.churn;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code faultline.net.connects{destination}} and {@code faultline.net.connect.rate{destination}}.
 * Destinations appear as they are first seen: call {@link #refresh()} after each {@link
 * ChurnMonitor#evaluate()} (never from the connect path). {@link #close()} removes every meter.
 */
public final class ChurnMetrics implements MeterBinder, AutoCloseable {

  private final ConnectChurn churn;
  private final ChurnMonitor monitor;
  private final Set<String> bound = new HashSet<>();
  private final List<Meter> meters = new ArrayList<>();
  private MeterRegistry registry;

  /** Meters over {@code churn}'s counts and {@code monitor}'s rates. */
  public ChurnMetrics(ConnectChurn churn, ChurnMonitor monitor) {
    this.churn = churn;
    this.monitor = monitor;
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    this.registry = registry;
    refresh();
  }

  /** Registers the meters of destinations seen since the last call. */
  public synchronized void refresh() {
    if (registry == null) {
      return;
    }
    for (String destination : churn.totals().keySet()) {
      if (bound.add(destination)) {
        meters.add(
            ChurnCatalog.CONNECTS
                .functionCounter(churn, c -> c.total(destination))
                .tags(ChurnCatalog.CONNECTS.tags(destination))
                .register(registry));
        meters.add(
            ChurnCatalog.CONNECT_RATE
                .gauge(monitor, m -> m.rate(destination))
                .tags(ChurnCatalog.CONNECT_RATE.tags(destination))
                .register(registry));
      }
    }
  }

  @Override
  public synchronized void close() {
    if (registry != null) {
      meters.forEach(registry::remove);
    }
    meters.clear();
    bound.clear();
  }
}
