package io.faultline.agent.export;

import io.faultline.core.Loggers;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Exports the agent's meters to an OTLP/HTTP collector every {@link OtlpSettings#interval()}, JSON
 * encoded ({@link OtlpJson}), on the agent's scheduler. A collector that is down or answers with an
 * error costs one failed request per interval, counted, and is logged once; nothing is queued.
 */
public final class OtlpExporter {

  private static final System.Logger LOG = Loggers.get(OtlpExporter.class.getName());

  private final OtlpSettings settings;
  private final MeterRegistry registry;
  private final Supplier<PhaseMeters> phases;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final long startEpochNanos = epochNanos();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile boolean failureLogged;

  OtlpExporter(OtlpSettings settings, MeterRegistry registry, Supplier<PhaseMeters> phases) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.phases = Objects.requireNonNull(phases, "phases");
  }

  /**
   * Starts exporting when OTLP is configured ({@link OtlpSettings#from}); returns the exporter, or
   * null when it is not.
   */
  public static OtlpExporter start(
      io.faultline.core.config.FaultlineConfig config,
      MeterRegistry registry,
      Supplier<PhaseMeters> phases,
      ScheduledExecutorService scheduler) {
    OtlpSettings settings = OtlpSettings.from(config, System.getenv()).orElse(null);
    if (settings == null) {
      return null;
    }
    OtlpExporter exporter = new OtlpExporter(settings, registry, phases);
    long every = Math.max(1_000, settings.interval().toMillis());
    scheduler.scheduleWithFixedDelay(exporter::exportQuietly, every, every, TimeUnit.MILLISECONDS);
    LOG.log(
        System.Logger.Level.INFO,
        "faultline: exporting metrics to {0} every {1} s as service {2}",
        settings.metricsUrl(),
        every / 1000,
        settings.resource().get("service.name"));
    return exporter;
  }

  /** Requests answered 2xx. */
  public long sent() {
    return sent.get();
  }

  /** Requests that failed (no answer, or not 2xx). */
  public long failed() {
    return failed.get();
  }

  /** One export now; false when it failed. */
  boolean export() {
    String body =
        OtlpJson.request(
            registry,
            phases.get(),
            settings.resource(),
            settings.histograms(),
            startEpochNanos,
            epochNanos());
    HttpRequest.Builder request =
        HttpRequest.newBuilder(settings.metricsUrl())
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    settings.headers().forEach(request::header);
    try {
      HttpResponse<Void> response =
          http.send(request.build(), HttpResponse.BodyHandlers.discarding());
      if (response.statusCode() / 100 == 2) {
        sent.incrementAndGet();
        return true;
      }
      fail("the collector answered HTTP " + response.statusCode());
    } catch (java.io.IOException e) {
      fail(e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  private void exportQuietly() {
    try {
      export();
    } catch (RuntimeException e) {
      fail(e.toString());
    }
  }

  private void fail(String why) {
    failed.incrementAndGet();
    if (!failureLogged) {
      failureLogged = true;
      LOG.log(
          System.Logger.Level.WARNING,
          "faultline: OTLP export to {0} failed ({1}); trying again every interval, logged once",
          settings.metricsUrl(),
          why);
    }
  }

  private static long epochNanos() {
    java.time.Instant now = java.time.Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
