package io.faultline.agent.export;

import io.faultline.agent.AgentVersion;
import io.faultline.kafka.KafkaMeters;
import io.faultline.kafka.phase.ExponentialBuckets;
import io.faultline.kafka.phase.PhaseBuckets;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One OTLP {@code ExportMetricsServiceRequest} in OTLP's JSON encoding: every meter of the agent's
 * registry, cumulative, under one resource and the scope {@code io.faultline.agent}. Gauges are
 * gauges, counters monotonic sums, timers histograms in seconds; the Kafka phase and gap timers
 * carry their explicit buckets ({@code kafka.phases.buckets}), read off the per-connection
 * histograms as {@code /metrics} does, or base-2 exponential buckets ({@code
 * otlp.histograms=exponential}).
 */
final class OtlpJson {

  /** OTLP's {@code AGGREGATION_TEMPORALITY_CUMULATIVE}. */
  private static final int CUMULATIVE = 2;

  private OtlpJson() {}

  /** The request body. */
  static String request(
      MeterRegistry registry,
      PhaseMeters phases,
      Map<String, String> resource,
      OtlpHistograms histograms,
      long startNanos,
      long nowNanos) {
    List<String> metrics = new ArrayList<>();
    // One look at the phase timers: a timer that a client registers while this request is built is
    // in the registry but not in this list, and must not come out twice (plain, then bucketed); it
    // is in the next request.
    List<PhaseMeters.Series> series = phases == null ? List.of() : phases.series();
    java.util.Set<String> bucketed =
        phases == null
            ? java.util.Set.of()
            : java.util.Set.of(KafkaMeters.REQUEST_PHASE.name(), KafkaMeters.REQUEST_GAP.name());
    for (Meter meter : registry.getMeters()) {
      Meter.Id id = meter.getId();
      String attributes = attributes(id.getTags());
      String point;
      String body;
      if (meter instanceof Gauge g) {
        point =
            "{"
                + attributes
                + ",\"timeUnixNano\":\""
                + nowNanos
                + "\",\"asDouble\":"
                + number(g.value())
                + "}";
        body = "\"gauge\":{\"dataPoints\":[" + point + "]}";
      } else if (meter instanceof Counter || meter instanceof FunctionCounter) {
        double count = meter instanceof Counter c ? c.count() : ((FunctionCounter) meter).count();
        point =
            "{"
                + attributes
                + ",\"startTimeUnixNano\":\""
                + startNanos
                + "\",\"timeUnixNano\":\""
                + nowNanos
                + "\",\"asDouble\":"
                + number(count)
                + "}";
        body =
            "\"sum\":{\"dataPoints\":["
                + point
                + "],\"aggregationTemporality\":"
                + CUMULATIVE
                + ",\"isMonotonic\":true}";
      } else if (meter instanceof FunctionTimer || meter instanceof Timer) {
        if (bucketed.contains(id.getName())) {
          continue; // written with its buckets below
        }
        long count;
        double sumSeconds;
        if (meter instanceof Timer t) {
          count = t.count();
          sumSeconds = t.totalTime(TimeUnit.SECONDS);
        } else {
          FunctionTimer t = (FunctionTimer) meter;
          count = (long) t.count();
          sumSeconds = t.totalTime(TimeUnit.SECONDS);
        }
        point =
            histogramPoint(
                attributes,
                startNanos,
                nowNanos,
                count,
                sumSeconds,
                new long[] {count},
                new double[0]);
        body =
            "\"histogram\":{\"dataPoints\":["
                + point
                + "],\"aggregationTemporality\":"
                + CUMULATIVE
                + "}";
        metrics.add(metric(id.getName(), id.getDescription(), "s", body));
        continue;
      } else {
        continue; // the agent registers no other kind
      }
      metrics.add(metric(id.getName(), id.getDescription(), unit(id.getBaseUnit()), body));
    }
    if (phases != null) {
      for (PhaseMeters.Series s : series) {
        String body =
            histograms == OtlpHistograms.EXPONENTIAL
                ? exponential(s, startNanos, nowNanos)
                : explicit(s, phases.buckets(), startNanos, nowNanos);
        metrics.add(metric(s.doc().name(), s.doc().description(), "s", body));
      }
    }
    return "{\"resourceMetrics\":[{\"resource\":{\"attributes\":["
        + keyValues(resource)
        + "]},\"scopeMetrics\":[{\"scope\":{\"name\":\"io.faultline.agent\",\"version\":"
        + string(AgentVersion.get())
        + "},\"metrics\":["
        + String.join(",", metrics)
        + "]}]}]}";
  }

  /** A phase timer's histogram at the bounds of {@code kafka.phases.buckets}. */
  private static String explicit(
      PhaseMeters.Series s, PhaseBuckets buckets, long startNanos, long nowNanos) {
    double[] bounds = buckets.boundsSeconds();
    PhaseMeters.Totals totals = s.timer().totals(buckets);
    long[] perBucket = new long[bounds.length + 1];
    long previous = 0;
    for (int i = 0; i < bounds.length; i++) {
      perBucket[i] = totals.cumulative()[i] - previous;
      previous = totals.cumulative()[i];
    }
    perBucket[bounds.length] = totals.count() - previous;
    String point =
        histogramPoint(
            attributes(s.tags()),
            startNanos,
            nowNanos,
            totals.count(),
            totals.sumSeconds(),
            perBucket,
            bounds);
    return "\"histogram\":{\"dataPoints\":["
        + point
        + "],\"aggregationTemporality\":"
        + CUMULATIVE
        + "}";
  }

  /** A phase timer's histogram in base-2 exponential buckets ({@link ExponentialBuckets}). */
  private static String exponential(PhaseMeters.Series s, long startNanos, long nowNanos) {
    PhaseMeters.Counts counts = s.timer().counts();
    ExponentialBuckets.Histogram e = ExponentialBuckets.of(counts.perBucket());
    StringBuilder b = new StringBuilder("{").append(attributes(s.tags()));
    b.append(",\"startTimeUnixNano\":\"").append(startNanos).append('"');
    b.append(",\"timeUnixNano\":\"").append(nowNanos).append('"');
    b.append(",\"count\":\"").append(counts.count()).append('"');
    b.append(",\"sum\":").append(number(counts.sumSeconds()));
    b.append(",\"scale\":").append(e.scale());
    b.append(",\"zeroCount\":\"0\"");
    b.append(",\"positive\":{\"offset\":").append(e.offset()).append(",\"bucketCounts\":[");
    for (int i = 0; i < e.counts().length; i++) {
      b.append(i == 0 ? "" : ",").append('"').append(e.counts()[i]).append('"');
    }
    b.append("]}}");
    return "\"exponentialHistogram\":{\"dataPoints\":["
        + b
        + "],\"aggregationTemporality\":"
        + CUMULATIVE
        + "}";
  }

  private static String histogramPoint(
      String attributes,
      long startNanos,
      long nowNanos,
      long count,
      double sumSeconds,
      long[] bucketCounts,
      double[] bounds) {
    StringBuilder b = new StringBuilder("{").append(attributes);
    b.append(",\"startTimeUnixNano\":\"").append(startNanos).append('"');
    b.append(",\"timeUnixNano\":\"").append(nowNanos).append('"');
    b.append(",\"count\":\"").append(count).append('"');
    b.append(",\"sum\":").append(number(sumSeconds));
    b.append(",\"bucketCounts\":[");
    for (int i = 0; i < bucketCounts.length; i++) {
      b.append(i == 0 ? "" : ",").append('"').append(bucketCounts[i]).append('"');
    }
    b.append("],\"explicitBounds\":[");
    for (int i = 0; i < bounds.length; i++) {
      b.append(i == 0 ? "" : ",").append(number(bounds[i]));
    }
    return b.append("]}").toString();
  }

  private static String metric(String name, String description, String unit, String body) {
    return "{\"name\":"
        + string(name)
        + ",\"description\":"
        + string(description == null ? "" : description)
        + ",\"unit\":"
        + string(unit)
        + ","
        + body
        + "}";
  }

  /** Micrometer base units in UCUM, as OpenTelemetry names them. */
  static String unit(String baseUnit) {
    if (baseUnit == null || baseUnit.isEmpty()) {
      return "1";
    }
    return switch (baseUnit) {
      case "seconds" -> "s";
      case "milliseconds" -> "ms";
      case "bytes" -> "By";
      default -> "{" + baseUnit + "}";
    };
  }

  private static String attributes(Iterable<Tag> tags) {
    StringBuilder b = new StringBuilder("\"attributes\":[");
    boolean first = true;
    for (Tag t : tags) {
      b.append(first ? "" : ",").append(keyValue(t.getKey(), t.getValue()));
      first = false;
    }
    return b.append(']').toString();
  }

  private static String keyValues(Map<String, String> pairs) {
    List<String> out = new ArrayList<>();
    pairs.forEach((k, v) -> out.add(keyValue(k, v)));
    return String.join(",", out);
  }

  private static String keyValue(String key, String value) {
    return "{\"key\":" + string(key) + ",\"value\":{\"stringValue\":" + string(value) + "}}";
  }

  /** A JSON number; NaN and infinities (a gauge with nothing yet) are 0. */
  private static String number(double d) {
    return Double.isFinite(d) ? Double.toString(d) : "0";
  }

  static String string(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }
}
