package io.faultline.it.agent;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One 10-second sample of the soak: the agent's footprint in the service's JVM (heap in use after a
 * full collection, threads, descriptors), what it exports (series, findings, scrape time) and the
 * application's throughput since the previous sample.
 *
 * @param seconds since the soak's start
 * @param heapAfterGcMb heap in use right after {@code System.gc()}, MiB
 * @param faultlineThreads threads whose name starts with {@code faultline-}
 * @param threads all live threads
 * @param descriptors open file descriptors ({@code /proc/PID/fd})
 * @param series sample lines of the Prometheus scrape, histogram buckets not counted
 * @param findings findings active (all, the host doctor's included)
 * @param serviceFindings findings active about the service's clients, pool and database
 * @param scrapeMillis wall time of the {@code /metrics} request
 * @param produced records acked since the previous sample
 * @param consumed records consumed since the previous sample
 * @param committed transactions committed since the previous sample
 * @param agentErrors {@code faultline_agent_errors_total}
 * @param fault the faults active during the sample's 10 s, {@code -} for none
 */
record SoakSample(
    double seconds,
    double heapAfterGcMb,
    int faultlineThreads,
    int threads,
    int descriptors,
    int series,
    int findings,
    int serviceFindings,
    double scrapeMillis,
    long produced,
    long consumed,
    long committed,
    double agentErrors,
    String fault) {

  static final String CSV_HEADER =
      "t_s,heap_after_gc_mb,faultline_threads,threads,descriptors,series,findings_active,"
          + "service_findings_active,scrape_ms,produced,consumed,committed,agent_errors,fault";

  String csv() {
    return String.format(
        Locale.ROOT,
        "%.0f,%.2f,%d,%d,%d,%d,%d,%d,%.1f,%d,%d,%d,%.0f,%s",
        seconds,
        heapAfterGcMb,
        faultlineThreads,
        threads,
        descriptors,
        series,
        findings,
        serviceFindings,
        scrapeMillis,
        produced,
        consumed,
        committed,
        agentErrors,
        fault);
  }

  /** The series the chart and the summary show, in order, with how to read each from a sample. */
  enum Series {
    HEAP("heap after GC (MiB)", SoakSample::heapAfterGcMb),
    FAULTLINE_THREADS("faultline threads", SoakSample::faultlineThreads),
    THREADS("all threads", SoakSample::threads),
    DESCRIPTORS("open descriptors", SoakSample::descriptors),
    SERIES("exported series", SoakSample::series),
    FINDINGS("findings active (all / service)", SoakSample::findings),
    SCRAPE("scrape time (ms)", SoakSample::scrapeMillis),
    PRODUCED("records acked / 10 s", SoakSample::produced),
    COMMITTED("transactions committed / 10 s", SoakSample::committed);

    final String title;
    private final ToDoubleFunction<SoakSample> value;

    Series(String title, ToDoubleFunction<SoakSample> value) {
      this.title = title;
      this.value = value;
    }

    double of(SoakSample s) {
      return value.applyAsDouble(s);
    }

    double min(List<SoakSample> samples) {
      return samples.stream().mapToDouble(this::of).min().orElse(Double.NaN);
    }

    double max(List<SoakSample> samples) {
      return samples.stream().mapToDouble(this::of).max().orElse(Double.NaN);
    }
  }
}
