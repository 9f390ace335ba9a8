package io.faultline.core.finding;

import io.faultline.core.metrics.CommonTags;
import io.faultline.core.metrics.CoreMeters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Exports a {@link Findings} registry to Micrometer: {@code faultline.findings.active{id,severity}}
 * and {@code faultline.findings.raised{id}} (see {@link CoreMeters}).
 *
 * <p>Meters are registered up front for every known finding type and every severity, so a dashboard
 * sees 0 rather than no series; and only for known types, so tag values come from a fixed set.
 * {@link #close()} removes every meter this binder registered, from every registry it was bound to.
 */
public final class FindingsMetrics implements MeterBinder, AutoCloseable {

  private final Findings findings;
  private final List<String> ids;
  private final Tags tags;
  private final List<Map.Entry<MeterRegistry, Meter>> registered = new ArrayList<>();

  /** Exports {@code findings} for the ids of {@code knownTypes}. */
  public FindingsMetrics(Findings findings, Collection<FindingType> knownTypes) {
    this(findings, knownTypes, Tags.empty());
  }

  /**
   * Exports {@code findings} for the ids of {@code knownTypes}, every meter also tagged with {@code
   * tags} (e.g. {@code app=orders} when two {@link Findings} share a registry).
   *
   * @throws IllegalArgumentException when a key of {@code tags} is {@code id} or {@code severity}
   */
  public FindingsMetrics(
      Findings findings, Collection<FindingType> knownTypes, Iterable<Tag> tags) {
    this.findings = Objects.requireNonNull(findings, "findings");
    this.tags =
        CommonTags.refuseDeclared(
            "tags",
            CommonTags.of("tags", tags),
            List.of(CoreMeters.FINDINGS_ACTIVE, CoreMeters.FINDINGS_RAISED));
    TreeSet<String> ids = new TreeSet<>();
    knownTypes.forEach(type -> ids.add(type.id()));
    this.ids = List.copyOf(ids);
  }

  /** Exports {@code findings} for every type of every {@link FindingCatalog} on the class path. */
  public static FindingsMetrics forClassPathCatalogs(Findings findings) {
    return new FindingsMetrics(findings, FindingCatalogs.fromClassPath());
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    for (String id : ids) {
      for (Severity severity : Severity.values()) {
        keep(
            registry,
            CoreMeters.FINDINGS_ACTIVE
                .gauge(findings, f -> f.activeCount(id, severity))
                .tags(CoreMeters.FINDINGS_ACTIVE.tags(id, severity.name()))
                .tags(tags)
                .strongReference(true)
                .register(registry));
      }
      keep(
          registry,
          CoreMeters.FINDINGS_RAISED
              .functionCounter(findings, f -> f.raisedCount(id))
              .tags(CoreMeters.FINDINGS_RAISED.tags(id))
              .tags(tags)
              .register(registry));
    }
  }

  private void keep(MeterRegistry registry, Meter meter) {
    registered.add(Map.entry(registry, meter));
  }

  /** Removes every meter this binder registered. */
  @Override
  public synchronized void close() {
    for (Map.Entry<MeterRegistry, Meter> entry : registered) {
      entry.getKey().remove(entry.getValue());
    }
    registered.clear();
  }
}
