package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.TestPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Faultline beside the OpenTelemetry Java agent, in both orders on the command line, running
 * Kafka's own {@code ProducerPerformance} against the real broker: both agents install while the
 * producer's classes load, so each run must get its producer going within a bound close to the same
 * run with the OpenTelemetry agent alone, and must send at no less than half its rate.
 *
 * <p>A run's time is split by {@code ProducerPerformance}'s own summary into its sending (records
 * over the rate it reports) and the rest (the JVM's and both agents' start, the producer's
 * construction and close): a stall between the agents shows in the rest, which the broker's speed
 * hardly moves, while the sending follows the broker, which on a shared 2-core machine drifts by
 * more than any fixed margin over a series. Faultline's own cost on a producer is measured by the
 * benchmarks, not here. A run past both bounds together has its threads dumped into its log and may
 * go on for {@link #STUCK_AFTER} more: a deadlock never ends, so it fails the test with the dump; a
 * run that ends late was slow, and one slow run per order is a busy machine's outlier, two are a
 * failure. Each order runs {@code -Dfaultline.it.otel.repeats} times (default 8); Faultline's
 * produce phases must have been timed.
 */
@ExtendWith(RealServers.class)
@Tag("real-world")
class OpenTelemetryAgentOrderTest {

  private static final int REPEATS = Integer.getInteger("faultline.it.otel.repeats", 8);
  private static final int RECORDS = Integer.getInteger("faultline.it.otel.records", 100_000);

  /** How long past its bound a run may go before it counts as stuck. */
  private static final Duration STUCK_AFTER = Duration.ofSeconds(60);

  /**
   * How many times OpenTelemetry alone's sending a run's sending may take: half its rate is a lock
   * or a stall in the send path, not the broker's drift.
   */
  private static final double SENDING_RATIO = 2.0;

  private static final String TRACES_EXPORTER =
      System.getProperty("faultline.it.otel.traces.exporter", "none");

  /** Which agent comes first on the command line. */
  enum Order {
    FAULTLINE_FIRST,
    OPENTELEMETRY_FIRST
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Order.class)
  void bothOrdersRunAsFastAsOpenTelemetryAloneAndFaultlineMeasures(Order order, KafkaCluster kafka)
      throws Exception {
    // The faster start of two runs (the first JVM of a series is often the slowest by seconds
    // here) and the slower sending (the broker's pace drifts over a series).
    double aloneStart = Double.MAX_VALUE;
    double aloneSending = 0;
    for (int run = 1; run <= 2; run++) {
      try (WatchedChild child =
          WatchedChild.start(
              "otel-" + order + "-alone" + run, perf(null, null), MAIN, perfArgs(kafka))) {
        double took = child.awaitExit(Duration.ofSeconds(300));
        assertThat(child.exitCode()).as("exit code; output:%n%s", child.output()).isZero();
        PerfRun alone = PerfRun.of(took, child.output());
        aloneStart = Math.min(aloneStart, alone.startSeconds());
        aloneSending = Math.max(aloneSending, alone.sendingSeconds());
      }
    }
    Duration startBound =
        StartupChecks.bound("ProducerPerformance " + order + ", all but sending", aloneStart);
    Duration sendingBound = Duration.ofMillis(Math.round(aloneSending * SENDING_RATIO * 1000));
    Duration bound = startBound.plus(sendingBound);
    List<PerfRun> runs = new ArrayList<>();
    List<String> slow = new ArrayList<>();
    double phases = 0;
    PrometheusText last = null;
    for (int run = 1; run <= REPEATS; run++) {
      int port = Http.freePort();
      try (WatchedChild child =
              WatchedChild.start(
                  "otel-" + order + "-run" + run, perf(order, port), MAIN, perfArgs(kafka));
          Scraper scraper = new Scraper(port)) {
        double took = child.awaitExitAllowingSlow(bound, bound.plus(STUCK_AFTER));
        assertThat(child.exitCode())
            .as("exit code of run %d; output:%n%s", run, child.output())
            .isZero();
        assertThat(child.output()).doesNotContain(ChildJvm.ERRORS_AT_EXIT);
        PerfRun both = PerfRun.of(took, child.output());
        runs.add(both);
        if (both.startSeconds() * 1000 > startBound.toMillis()
            || both.sendingSeconds() * 1000 > sendingBound.toMillis()) {
          slow.add(String.format(Locale.ROOT, "run %d: %s, log %s", run, both, child.outputFile()));
        }
        PrometheusText metrics = scraper.last();
        if (metrics != null) {
          last = metrics;
          phases = Math.max(phases, StartupChecks.producePhases(metrics));
          assertThat(metrics.sum("faultline_agent_errors_total", java.util.Map.of()))
              .as("suppressed agent errors, run %d", run)
              .isZero();
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "OpenTelemetry + Faultline, %s: OpenTelemetry alone starts in %.2f s and sends in %.2f s"
            + " (bounds %.2f s and %.2f s); both: %s%n",
        order,
        aloneStart,
        aloneSending,
        startBound.toMillis() / 1000.0,
        sendingBound.toMillis() / 1000.0,
        runs);
    slow.forEach(line -> System.out.println("  past a bound: " + line));
    assertThat(slow)
        .as(
            "runs past a bound (start %.2f s, sending %.2f s: OpenTelemetry alone's start + %.0f s,"
                + " its sending x %.0f)",
            startBound.toMillis() / 1000.0,
            sendingBound.toMillis() / 1000.0,
            StartupChecks.MARGIN_SECONDS,
            SENDING_RATIO)
        .hasSizeLessThanOrEqualTo(1);
    assertThat(phases).as("produce requests timed by Faultline in some run").isPositive();
    StartupChecks.assertStartupBlockedBelowATenth(last);
  }

  /**
   * One {@code ProducerPerformance} run: its wall time, and the part of it spent sending by the
   * program's own summary (records over the rate it reports; its clock starts once the producer
   * exists and stops after the last record is acknowledged).
   */
  record PerfRun(double seconds, double sendingSeconds) {

    /** The summary line's record count and rate; its periodic lines have no percentiles. */
    private static final Pattern SUMMARY =
        Pattern.compile("(?m)^(\\d+) records sent, ([0-9.]+) records/sec .*99\\.9th");

    static PerfRun of(double seconds, String output) {
      Matcher summary = SUMMARY.matcher(output);
      if (!summary.find()) {
        throw new AssertionError("no ProducerPerformance summary in its output:\n" + output);
      }
      return new PerfRun(
          seconds, Long.parseLong(summary.group(1)) / Double.parseDouble(summary.group(2)));
    }

    /**
     * Everything but the sending: the JVM's and the agents' start, the producer's set-up, close.
     */
    double startSeconds() {
      return seconds - sendingSeconds;
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%.2f s (start %.2f + sending %.2f)",
          seconds,
          startSeconds(),
          sendingSeconds);
    }
  }

  /**
   * Reads Faultline's endpoint every 100 ms while the program runs (it exits by itself, so the last
   * scrape before its exit is what the test sees).
   */
  private static final class Scraper implements AutoCloseable {
    private final Thread thread;
    private volatile String last;
    private volatile boolean stop;

    Scraper(int port) {
      thread =
          new Thread(
              () -> {
                while (!stop) {
                  try {
                    last = Http.get("http://127.0.0.1:" + port + "/metrics").body();
                  } catch (java.io.IOException notUpOrGone) {
                    // before the endpoint starts, or after the exit
                  } catch (InterruptedException e) {
                    return;
                  }
                  try {
                    Thread.sleep(100);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "scrape-" + port);
      thread.setDaemon(true);
      thread.start();
    }

    /** The last scrape, or null when the endpoint never answered. */
    PrometheusText last() throws InterruptedException {
      stop = true;
      thread.join(10_000);
      return last == null ? null : PrometheusText.parse(last);
    }

    @Override
    public void close() {
      stop = true;
      thread.interrupt();
    }
  }

  private static final String MAIN = "org.apache.kafka.tools.ProducerPerformance";

  /** The JVM for one run: the OpenTelemetry agent, and Faultline before or after it. */
  private static ChildJvm perf(Order order, Integer faultlinePort) {
    Path otel = realWorld("opentelemetry-javaagent.jar");
    Path docker = TestPaths.kafkaDockerDir();
    ChildJvm jvm =
        ChildJvm.on(Jdk.current())
            .withoutAgent()
            .option("-Dlog4j2.configurationFile=" + docker.resolve("log4j2.properties"))
            .option("-Dotel.traces.exporter=" + TRACES_EXPORTER)
            .option("-Dotel.metrics.exporter=none")
            .option("-Dotel.logs.exporter=none")
            .option("-Dotel.javaagent.logging=simple")
            .classPath(docker.resolve("target/broker-libs").resolve("*"))
            .classPath(realWorld("kafka-tools.jar"));
    String faultline = "-javaagent:" + ChildJvm.agentJar() + "=prometheus.port=" + faultlinePort;
    if (order == Order.FAULTLINE_FIRST) {
      jvm.option(faultline);
    }
    jvm.option("-javaagent:" + otel);
    if (order == Order.OPENTELEMETRY_FIRST) {
      jvm.option(faultline);
    }
    return jvm;
  }

  private String[] perfArgs(KafkaCluster kafka) {
    String topic = "otel-perf-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    return new String[] {
      "--topic",
      topic,
      "--num-records",
      Integer.toString(RECORDS),
      "--record-size",
      "512",
      "--throughput",
      "-1",
      "--producer-props",
      "bootstrap.servers=" + kafka.bootstrapServers(),
      "acks=all"
    };
  }

  static Path realWorld(String jar) {
    Path path = Path.of(System.getProperty("faultline.it.realworld.dir", "target/real-world"), jar);
    Assumptions.assumeTrue(
        java.nio.file.Files.exists(path), jar + " not copied (src/test/pom.xml): " + path);
    return path;
  }
}
