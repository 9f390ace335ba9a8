package io.faultline.agent.export;

import io.faultline.core.Loggers;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The agent's Prometheus registry, built on the first scrape ({@link DeferredMetricsPage}): the
 * Prometheus client's classes and set-up (about fifty classes, a measurable share of the agent's
 * start-up CPU) stay out of the start. The agent's meters live from the start in a cumulative
 * registry of their own, which keeps every count made before the export; this registry reads them
 * at scrape as the same families Micrometer's Prometheus registry would write for them: counters,
 * gauges, function counters and function timers one for one, a timer as its count-and-sum family
 * and its {@code _max} gauge, a distribution summary likewise (written by a collector of its own,
 * as Micrometer has no function meter of that shape). Meters added or removed later follow.
 *
 * <p>A meter the mirror cannot write (a long task timer, a custom meter: the agent has none) is
 * left out and logged once; a failure never reaches the code that registered the meter.
 */
final class PrometheusMirror {

  private static final System.Logger LOG = Loggers.get(PrometheusMirror.class.getName());

  private final MeterRegistry source;
  private final PrometheusMeterRegistry target;
  private final Map<Meter.Id, Mirrored> mirrored = new ConcurrentHashMap<>();
  private final Map<Meter.Id, DistributionSummary> summaries = new ConcurrentHashMap<>();
  private final AtomicBoolean warned = new AtomicBoolean();

  /**
   * The target meters written for one source meter. Compared by identity: a meter removed and
   * registered again under the same id is another meter (Micrometer's meters are equal by id).
   */
  private static final class Mirrored {
    final Meter source;
    final List<Meter> written;

    Mirrored(Meter source, List<Meter> written) {
      this.source = source;
      this.written = written;
    }
  }

  private PrometheusMirror(MeterRegistry source, PrometheusMeterRegistry target) {
    this.source = source;
    this.target = target;
  }

  /**
   * A new Prometheus registry that mirrors every meter of {@code source}, now and from now on; call
   * {@link #catchUp()} before each scrape.
   *
   * @param source the agent's own registry, cumulative (a step registry would mirror its steps)
   */
  static PrometheusMirror of(MeterRegistry source) {
    PrometheusMirror mirror =
        new PrometheusMirror(source, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    mirror.target.getPrometheusRegistry().register(mirror.new SummaryCollector());
    // Listeners first, then the meters already there (a meter added in between is mirrored once).
    source.config().onMeterAdded(mirror::add).onMeterRemoved(mirror::remove);
    mirror.catchUp();
    return mirror;
  }

  /** The Prometheus registry this mirror writes. */
  PrometheusMeterRegistry registry() {
    return target;
  }

  /**
   * Mirrors what the listeners missed. Micrometer calls a registry's listeners before the new meter
   * is in its list, and neither takes a lock the other side can see: a meter registered while the
   * mirror was being built could reach neither the listener nor the first look at the list, and
   * would be missing from every scrape. (A removal cannot be missed so: the meter leaves the list
   * before the listeners are called.)
   */
  void catchUp() {
    for (Meter meter : source.getMeters()) {
      // Registered still: a meter removed since the list was read would displace its successor.
      if (!isMirrored(meter) && isRegistered(meter)) {
        add(meter);
        // Removed since the list was read, its removal listener already run: undo the add.
        if (!isRegistered(meter)) {
          remove(meter);
        }
      }
    }
  }

  private boolean isMirrored(Meter meter) {
    Mirrored m = mirrored.get(meter.getId());
    return (m != null && m.source == meter) || summaries.get(meter.getId()) == meter;
  }

  /**
   * Whether {@code meter} itself, not only a meter of its id, is in the source: a gauge removed and
   * registered again (a listener that closed and opened again) is a new meter over new state.
   */
  private boolean isRegistered(Meter meter) {
    Meter.Id id = meter.getId();
    for (Meter m : source.find(id.getName()).tags(id.getTagsAsIterable()).meters()) {
      if (m == meter) {
        return true;
      }
    }
    return false;
  }

  private void add(Meter meter) {
    try {
      Meter.Id id = meter.getId();
      if (meter instanceof DistributionSummary summary) {
        summaries.put(id, summary);
        return;
      }
      Mirrored existing = mirrored.get(id);
      if (existing != null) {
        if (existing.source == meter) {
          return;
        }
        // A removed meter's mirror still under this id: the target would hand it back.
        drop(existing);
      }
      List<Meter> written = mirrorOf(meter);
      if (written.isEmpty()) {
        warnOnce(meter, "its kind is not mirrored");
      } else {
        mirrored.put(id, new Mirrored(meter, written));
      }
    } catch (RuntimeException e) {
      warnOnce(meter, e.toString());
    }
  }

  /** Stops writing {@code meter}; a newer meter registered under its id stays. */
  private void remove(Meter meter) {
    Meter.Id id = meter.getId();
    summaries.computeIfPresent(id, (k, s) -> s == meter ? null : s);
    Mirrored m = mirrored.get(id);
    if (m != null && m.source == meter) {
      drop(m);
    }
  }

  private void drop(Mirrored m) {
    if (mirrored.remove(m.source.getId(), m)) {
      for (Meter written : m.written) {
        target.remove(written);
      }
    }
  }

  /** The target's meters that write {@code meter}; empty for a kind this mirror does not write. */
  private List<Meter> mirrorOf(Meter meter) {
    Meter.Id id = meter.getId();
    if (meter instanceof Counter counter) {
      return List.of(functionCounter(id, counter, Counter::count));
    }
    if (meter instanceof FunctionCounter counter) {
      return List.of(functionCounter(id, counter, FunctionCounter::count));
    }
    if (meter instanceof TimeGauge gauge) {
      return List.of(gauge(id.getName(), id, "seconds", gauge, g -> g.value(TimeUnit.SECONDS)));
    }
    if (meter instanceof Gauge gauge) {
      return List.of(gauge(id.getName(), id, id.getBaseUnit(), gauge, Gauge::value));
    }
    if (meter instanceof FunctionTimer timer) {
      return List.of(
          functionTimer(id, timer, t -> (long) t.count(), t -> t.totalTime(TimeUnit.SECONDS)));
    }
    if (meter instanceof Timer timer) {
      // Micrometer's Prometheus timer writes two families: <name>_seconds (count and sum) and
      // <name>_seconds_max, a gauge named in full (no base unit appended).
      String family = conventionName(id, Meter.Type.TIMER, "seconds");
      return List.of(
          functionTimer(id, timer, Timer::count, t -> t.totalTime(TimeUnit.SECONDS)),
          gauge(family + "_max", id, null, timer, t -> t.max(TimeUnit.SECONDS)));
    }
    return List.of();
  }

  private <T> FunctionCounter functionCounter(Meter.Id id, T counter, ToDoubleFunction<T> count) {
    return FunctionCounter.builder(id.getName(), counter, count)
        .tags(id.getTagsAsIterable())
        .description(id.getDescription())
        .baseUnit(id.getBaseUnit())
        .register(target);
  }

  private <T> Gauge gauge(
      String name, Meter.Id id, String baseUnit, T gauge, ToDoubleFunction<T> value) {
    return Gauge.builder(name, gauge, value)
        .tags(id.getTagsAsIterable())
        .description(id.getDescription())
        .baseUnit(baseUnit)
        .strongReference(true)
        .register(target);
  }

  private <T> FunctionTimer functionTimer(
      Meter.Id id, T timer, ToLongFunction<T> count, ToDoubleFunction<T> totalSeconds) {
    return FunctionTimer.builder(id.getName(), timer, count, totalSeconds, TimeUnit.SECONDS)
        .tags(id.getTagsAsIterable())
        .description(id.getDescription())
        .register(target);
  }

  private String conventionName(Meter.Id id, Meter.Type type, String baseUnit) {
    return target.config().namingConvention().name(id.getName(), type, baseUnit);
  }

  private void warnOnce(Meter meter, String why) {
    if (warned.compareAndSet(false, true)) {
      LOG.log(
          Level.WARNING,
          "faultline: "
              + meter.getId().getName()
              + " is not written at /metrics ("
              + why
              + "); OTLP and the application's Micrometer still have it");
    }
  }

  /**
   * The distribution summaries: one summary family ({@code _count}, {@code _sum}) and one {@code
   * _max} gauge family per name, as Micrometer's Prometheus registry writes them.
   */
  private final class SummaryCollector implements MultiCollector {

    @Override
    public MetricSnapshots collect() {
      NamingConvention naming = target.config().namingConvention();
      Map<String, SummarySnapshot.Builder> counts = new TreeMap<>();
      Map<String, GaugeSnapshot.Builder> maxima = new TreeMap<>();
      List<Map.Entry<Meter.Id, DistributionSummary>> all = new ArrayList<>(summaries.entrySet());
      all.sort(Comparator.comparing(e -> e.getKey().toString()));
      for (Map.Entry<Meter.Id, DistributionSummary> e : all) {
        Meter.Id id = e.getKey();
        DistributionSummary summary = e.getValue();
        String family =
            naming.name(id.getName(), Meter.Type.DISTRIBUTION_SUMMARY, id.getBaseUnit());
        Labels labels = labels(id, naming);
        counts
            .computeIfAbsent(family, f -> SummarySnapshot.builder().name(f).help(help(id)))
            .dataPoint(
                SummarySnapshot.SummaryDataPointSnapshot.builder()
                    .count(summary.count())
                    .sum(summary.totalAmount())
                    .quantiles(Quantiles.EMPTY)
                    .labels(labels)
                    .build());
        maxima
            .computeIfAbsent(family + "_max", f -> GaugeSnapshot.builder().name(f).help(help(id)))
            .dataPoint(
                GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .value(summary.max())
                    .labels(labels)
                    .build());
      }
      List<MetricSnapshot> snapshots = new ArrayList<>();
      counts.values().forEach(b -> snapshots.add(b.build()));
      maxima.values().forEach(b -> snapshots.add(b.build()));
      return new MetricSnapshots(snapshots);
    }

    private Labels labels(Meter.Id id, NamingConvention naming) {
      Labels.Builder labels = Labels.builder();
      for (Tag tag : id.getConventionTags(naming)) {
        labels.label(tag.getKey(), tag.getValue());
      }
      return labels.build();
    }

    private String help(Meter.Id id) {
      String description = id.getDescription();
      return description == null ? " " : description;
    }
  }
}
