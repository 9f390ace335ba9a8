package io.faultline.it.agent;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Runs the chaos service ({@link ChaosService}, counts-only ledger) for a soak: the {@link
 * SoakSchedule}'s faults and churn on two threads of their own, and a {@link SoakSample} every 10 s
 * on the caller's. Returns what it saw; {@link SoakChecks} judges it.
 */
final class Soak {

  static final Duration SAMPLE_EVERY = Duration.ofSeconds(10);

  /** A fault's window, seconds from the soak's start. */
  record FaultWindow(String name, double start, double end) {}

  /** What the soak saw. */
  record Run(
      SoakSchedule schedule,
      boolean withFaults,
      List<SoakSample> samples,
      List<FaultWindow> faults,
      FindingSpells findings,
      List<String> notes) {}

  private final KafkaCluster kafka;
  private final PostgresServer postgres;
  private final SoakSchedule schedule;
  private final boolean withFaults;
  private final List<FaultWindow> windows = new CopyOnWriteArrayList<>();
  private final List<String> notes = new CopyOnWriteArrayList<>();
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();
  private long startNanos;

  /** The fault under way, which has no window yet. */
  private volatile String current;

  private Soak(KafkaCluster kafka, PostgresServer postgres, Duration total, boolean withFaults) {
    this.kafka = kafka;
    this.postgres = postgres;
    this.schedule = SoakSchedule.of(total, withFaults);
    this.withFaults = withFaults;
  }

  static Run run(KafkaCluster kafka, PostgresServer postgres, Duration total, boolean withFaults)
      throws Exception {
    return new Soak(kafka, postgres, total, withFaults).run();
  }

  private Run run() throws Exception {
    String name = withFaults ? "soak" : "soak_quiet";
    try (ChaosService service = ChaosService.start(kafka, postgres, name, false)) {
      service.awaitWorking();
      startNanos = System.nanoTime();
      Thread faults = walk("soak-faults", schedule.faults, service);
      Thread churn = walk("soak-churn", schedule.churn, service);
      List<SoakSample> samples = new ArrayList<>();
      FindingSpells spells = new FindingSpells();
      Map<String, Long> last = service.progress();
      for (int k = 1; ; k++) {
        double at = k * (double) SAMPLE_EVERY.toSeconds();
        if (at > schedule.total.toSeconds()) {
          break;
        }
        sleepUntil(at);
        SoakSample s = sample(service, at, last, spells);
        last = service.progress();
        samples.add(s);
        System.out.println("SOAK " + s.csv());
      }
      churn.join(60_000);
      faults.join(120_000);
      ChaosService.Stopped stopped = service.stop();
      notes.add("failures the service saw: " + stopped.ledger().failures());
      for (Throwable t : failures) {
        throw new AssertionError("a step of the schedule failed", t);
      }
      return new Run(schedule, withFaults, samples, List.copyOf(windows), spells, notes);
    }
  }

  private double now() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private void sleepUntil(double seconds) throws InterruptedException {
    long millis = (long) ((seconds - now()) * 1000);
    if (millis > 0) {
      Thread.sleep(millis);
    }
  }

  /** Walks a list of steps on a thread of its own; faults are timed into {@link #windows}. */
  private Thread walk(String threadName, List<SoakSchedule.Step> steps, ChaosService service) {
    Thread t =
        new Thread(
            () -> {
              try {
                for (SoakSchedule.Step step : steps) {
                  sleepUntil(step.at().toSeconds());
                  if (step.fault()) {
                    double start = now();
                    current = step.name();
                    String figure = apply(step.name(), service);
                    windows.add(new FaultWindow(step.name(), start, now()));
                    current = null;
                    notes.add(
                        String.format(
                            Locale.ROOT,
                            "%s at %.0f-%.0f s%s",
                            step.name(),
                            start,
                            now(),
                            figure.isEmpty() ? "" : " (" + figure + ")"));
                  } else {
                    service.send(step.name());
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (Exception | AssertionError e) {
                failures.add(e);
              }
            },
            threadName);
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Applies one of {@link SoakSchedule#FAULTS}; returns a figure about it, if any. */
  private String apply(String fault, ChaosService service) throws Exception {
    KafkaNode node = kafka.node(1);
    switch (fault) {
      case "broker_kill" -> ChaosFaults.killAndRestart(node);
      case "broker_pause" -> ChaosFaults.pause(node);
      case "pg_terminate" -> {
        return ChaosFaults.terminateBackends(postgres, service, 8) + " backends terminated";
      }
      case "pg_crash" -> {
        return String.format(
            Locale.ROOT,
            "accepting connections %.1f s after the kill",
            ChaosFaults.crashPostgres(postgres, service));
      }
      case "pool_exhausted" -> ChaosFaults.exhaustPool(service);
      default -> throw new IllegalArgumentException(fault);
    }
    return "";
  }

  private SoakSample sample(
      ChaosService service, double at, Map<String, Long> last, FindingSpells spells)
      throws InterruptedException, IOException {
    long gcs = service.progress().getOrDefault("gcs", 0L);
    service.send("gc");
    service.awaitProgress(
        "the service's heap after a collection",
        Duration.ofSeconds(30),
        p -> p.getOrDefault("gcs", 0L) > gcs);
    Map<String, Long> p = service.progress();
    int descriptors;
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(service.pid()), "fd"))) {
      descriptors = (int) fds.count();
    }
    long scrapeStart = System.nanoTime();
    String scrape = service.scrape();
    double scrapeMillis = (System.nanoTime() - scrapeStart) / 1e6;
    // A histogram counts as its _count and _sum lines, not its buckets: a request type that a
    // Kafka client first sends late (a slow request's delivery phase, a new node) brings a whole
    // histogram at once, 15 lines, which on a slow host lands after the cut's warm-up; a leak
    // still shows as series that keep coming.
    int series =
        (int)
            scrape
                .lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#") && !l.contains("_bucket{"))
                .count();
    double errors = PrometheusText.parse(scrape).sum("faultline_agent_errors_total", Map.of());
    Set<String> active = service.activeFindings();
    spells.update(at, active);
    double from = at - SAMPLE_EVERY.toSeconds();
    List<String> faults = new ArrayList<>();
    for (FaultWindow w : windows) {
      if (w.start() <= at && w.end() >= from) {
        faults.add(w.name());
      }
    }
    String underWay = current;
    if (underWay != null) {
      faults.add(underWay);
    }
    return new SoakSample(
        at,
        p.getOrDefault("heapAfterGc", 0L) / (1024.0 * 1024.0),
        p.getOrDefault("faultlineThreads", 0L).intValue(),
        p.getOrDefault("threads", 0L).intValue(),
        descriptors,
        series,
        active.size(),
        (int) active.stream().filter(FindingsWatch::aboutTheService).count(),
        scrapeMillis,
        p.getOrDefault("acked", 0L) - last.getOrDefault("acked", 0L),
        p.getOrDefault("consumed", 0L) - last.getOrDefault("consumed", 0L),
        p.getOrDefault("committed", 0L) - last.getOrDefault("committed", 0L),
        errors,
        faults.isEmpty() ? "-" : String.join("+", faults.stream().distinct().toList()));
  }
}
