package io.faultline.agent.export;

import io.faultline.kafka.phase.ExponentialBuckets;
import io.faultline.kafka.phase.PhaseBuckets;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
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
 * <p>A scraper that asks for Prometheus's protobuf format (a Prometheus with native histograms on)
 * gets the same histograms with native buckets as well ({@link ExponentialBuckets}, schema 3), read
 * off the same log-linear histograms.
 *
 * <p>The timers stay registered with Micrometer (the bridge into the application's Micrometer
 * mirrors them); only their families are left out of the registry's snapshot and replaced here.
 */
public final class PrometheusScrape {

  /** What a scraper's {@code Accept} names to get the protobuf format. */
  private static final String PROTOBUF = "application/vnd.google.protobuf";

  private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry;
  private final Supplier<PhaseMeters> phases;
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final PrometheusProtobufWriter protobuf = new PrometheusProtobufWriter();

  /**
   * @param registry the agent's registry
   * @param phases the phase timers, or {@code null} while there are none (no Kafka client yet)
   */
  public PrometheusScrape(PrometheusMeterRegistry registry, Supplier<PhaseMeters> phases) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.phases = Objects.requireNonNull(phases, "phases");
  }

  /**
   * Every meter in the format the scraper asks for: Prometheus's protobuf format when {@code
   * accept} names it (a Prometheus with native histograms on asks for it, and gets the phase
   * histograms' native buckets besides the classic ones), else the text format 0.0.4.
   *
   * @param accept the request's {@code Accept} header, or null
   */
  public ScrapeEndpoint.Page scrape(String accept) {
    if (accept != null && accept.contains(PROTOBUF)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      write(protobuf, true, out);
      return new ScrapeEndpoint.Page(protobuf.getContentType(), out.toByteArray());
    }
    return new ScrapeEndpoint.Page(TEXT, scrape().getBytes(StandardCharsets.UTF_8));
  }

  /** The Prometheus text format (0.0.4) of every meter. */
  public String scrape() {
    PhaseMeters meters = phases.get();
    if (meters == null || meters.timerCount() == 0) {
      return registry.scrape();
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    write(writer, false, out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** {@code nativeBuckets}: only the protobuf format carries them; text would drop them. */
  private void write(
      ExpositionFormatWriter format, boolean nativeBuckets, ByteArrayOutputStream out) {
    PhaseMeters meters = phases.get();
    List<MetricSnapshot> all = new ArrayList<>();
    if (meters == null || meters.timerCount() == 0) {
      registry.getPrometheusRegistry().scrape().forEach(all::add);
      writeAll(format, out, all);
      return;
    }
    List<HistogramSnapshot> histograms = histograms(meters, nativeBuckets);
    List<String> replaced = new ArrayList<>();
    for (HistogramSnapshot h : histograms) {
      replaced.add(h.getMetadata().getPrometheusName());
    }
    for (MetricSnapshot s :
        registry.getPrometheusRegistry().scrape(name -> !replaced.contains(name))) {
      all.add(s);
    }
    all.addAll(histograms);
    writeAll(format, out, all);
  }

  private static void writeAll(
      ExpositionFormatWriter format, ByteArrayOutputStream out, List<MetricSnapshot> all) {
    try {
      format.write(out, new MetricSnapshots(all));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
    }
  }

  /**
   * One histogram family per timer name, one data point per tag set; with {@code nativeBuckets},
   * the native buckets besides the classic ones.
   */
  List<HistogramSnapshot> histograms(PhaseMeters meters, boolean nativeBuckets) {
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
      // One read for both bucket sets, so their counts agree.
      PhaseMeters.Counts counts = s.timer().counts();
      HistogramSnapshot.HistogramDataPointSnapshot.Builder point =
          HistogramSnapshot.HistogramDataPointSnapshot.builder()
              .classicHistogramBuckets(
                  ClassicHistogramBuckets.of(
                      bounds, perBucket(buckets.cumulative(counts.perBucket()), counts.count())))
              .sum(counts.sumSeconds())
              .labels(labels(s, naming));
      if (nativeBuckets) {
        ExponentialBuckets.Histogram exponential = ExponentialBuckets.of(counts.perBucket());
        point
            .nativeSchema(exponential.scale())
            .nativeZeroCount(0)
            .nativeBucketsForPositiveValues(nativeBuckets(exponential));
      }
      family.dataPoint(point.build());
    }
    List<HistogramSnapshot> out = new ArrayList<>();
    families.values().forEach(b -> out.add(b.build()));
    return out;
  }

  /**
   * The buckets with counts, by Prometheus's index (bucket i holds values up to base<sup>i</sup>,
   * one above OTLP's index for the same bucket).
   */
  private static NativeHistogramBuckets nativeBuckets(ExponentialBuckets.Histogram e) {
    int n = 0;
    for (long c : e.counts()) {
      n += c == 0 ? 0 : 1;
    }
    int[] indexes = new int[n];
    long[] counts = new long[n];
    int j = 0;
    for (int i = 0; i < e.counts().length; i++) {
      if (e.counts()[i] != 0) {
        indexes[j] = e.offset() + i + 1;
        counts[j++] = e.counts()[i];
      }
    }
    return NativeHistogramBuckets.of(indexes, counts);
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
