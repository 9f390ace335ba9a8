package io.faultline.agent.export;

import io.faultline.kafka.phase.PhaseBuckets;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The text of the agent's {@code /metrics}: every meter of the agent's Prometheus registry, except
 * that the Kafka request phase and gap timers are written as classic histograms ({@code
 * _bucket{le=...}}, {@code _count}, {@code _sum}) instead of the count-and-sum summaries Micrometer
 * writes for a {@code FunctionTimer}. The buckets are read off the timers' log-linear histograms at
 * scrape time ({@link PhaseMeters#series}), so nothing more is recorded per request; Micrometer
 * cannot write them itself, as it only writes buckets for the timers it records into.
 *
 * <p>The timers stay registered with Micrometer (the bridge into the application's Micrometer
 * mirrors them); only their families are left out of the registry's snapshot and replaced here.
 */
public final class PrometheusScrape {

  private final PrometheusMeterRegistry registry;
  private final Supplier<PhaseMeters> phases;
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  /**
   * @param registry the agent's registry
   * @param phases the phase timers, or {@code null} while there are none (no Kafka client yet)
   */
  public PrometheusScrape(PrometheusMeterRegistry registry, Supplier<PhaseMeters> phases) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.phases = Objects.requireNonNull(phases, "phases");
  }

  /** The Prometheus text format (0.0.4) of every meter. */
  public String scrape() {
    PhaseMeters meters = phases.get();
    if (meters == null || meters.timerCount() == 0) {
      return registry.scrape();
    }
    List<HistogramSnapshot> histograms = histograms(meters);
    List<String> replaced = new ArrayList<>();
    for (HistogramSnapshot h : histograms) {
      replaced.add(h.getMetadata().getPrometheusName());
    }
    List<MetricSnapshot> all = new ArrayList<>();
    for (MetricSnapshot s :
        registry.getPrometheusRegistry().scrape(name -> !replaced.contains(name))) {
      all.add(s);
    }
    all.addAll(histograms);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      writer.write(out, new MetricSnapshots(all));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** One histogram family per timer name, one data point per tag set. */
  List<HistogramSnapshot> histograms(PhaseMeters meters) {
    NamingConvention naming = registry.config().namingConvention();
    PhaseBuckets buckets = meters.buckets();
    double[] bounds = withInfinity(buckets.boundsSeconds());
    Map<String, HistogramSnapshot.Builder> families = new LinkedHashMap<>();
    for (PhaseMeters.Series s : meters.series()) {
      // The name Micrometer gives the FunctionTimer (base unit seconds), so it is the one replaced.
      String name = naming.name(s.doc().name(), Meter.Type.TIMER, "seconds");
      HistogramSnapshot.Builder family =
          families.computeIfAbsent(
              name, n -> HistogramSnapshot.builder().name(n).help(s.doc().description()));
      PhaseMeters.Totals totals = s.timer().totals(buckets);
      family.dataPoint(
          HistogramSnapshot.HistogramDataPointSnapshot.builder()
              .classicHistogramBuckets(
                  ClassicHistogramBuckets.of(
                      bounds, perBucket(totals.cumulative(), totals.count())))
              .sum(totals.sumSeconds())
              .labels(labels(s, naming))
              .build());
    }
    List<HistogramSnapshot> out = new ArrayList<>();
    families.values().forEach(b -> out.add(b.build()));
    return out;
  }

  private static Labels labels(PhaseMeters.Series s, NamingConvention naming) {
    List<String> keys = new ArrayList<>();
    List<String> values = new ArrayList<>();
    for (Tag t : s.tags()) {
      keys.add(naming.tagKey(t.getKey()));
      values.add(naming.tagValue(t.getValue()));
    }
    return Labels.of(keys, values);
  }

  private static double[] withInfinity(double[] bounds) {
    double[] out = Arrays.copyOf(bounds, bounds.length + 1);
    out[bounds.length] = Double.POSITIVE_INFINITY;
    return out;
  }

  /** The client library's buckets are per bucket, not cumulative; the last is {@code +Inf}. */
  private static long[] perBucket(long[] cumulative, long count) {
    long[] out = new long[cumulative.length + 1];
    long previous = 0;
    for (int i = 0; i < cumulative.length; i++) {
      out[i] = cumulative[i] - previous;
      previous = cumulative[i];
    }
    out[cumulative.length] = Math.max(0, count - previous);
    return out;
  }
}
