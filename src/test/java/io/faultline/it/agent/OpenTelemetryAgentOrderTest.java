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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Faultline beside the OpenTelemetry Java agent, in both orders on the command line, running
 * Kafka's own {@code ProducerPerformance} against the real broker: both agents install while the
 * producer's classes load, so each run must end within a bound close to the same run with the
 * OpenTelemetry agent alone. A run past the bound has its threads dumped into its log and may go on
 * for {@link #STUCK_AFTER} more: a deadlock never ends, so it fails the test with the dump; a run
 * that ends late was slow, and one slow run per order is a busy machine's outlier, two are a
 * failure. Each order runs {@code -Dfaultline.it.otel.repeats} times (default 8); Faultline's
 * produce phases must have been timed.
 */
@ExtendWith(RealServers.class)
@Tag("real-world")
class OpenTelemetryAgentOrderTest {

  private static final int REPEATS = Integer.getInteger("faultline.it.otel.repeats", 8);
  private static final int RECORDS = Integer.getInteger("faultline.it.otel.records", 200_000);

  /** How long past its bound a run may go before it counts as stuck. */
  private static final Duration STUCK_AFTER = Duration.ofSeconds(60);

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
    // The faster of two runs: the first JVM of a series is often the slowest by seconds here.
    double alone = Double.MAX_VALUE;
    for (int run = 1; run <= 2; run++) {
      try (WatchedChild child =
          WatchedChild.start(
              "otel-" + order + "-alone" + run, perf(null, null), MAIN, perfArgs(kafka))) {
        alone = Math.min(alone, child.awaitExit(Duration.ofSeconds(300)));
        assertThat(child.exitCode()).as("exit code; output:%n%s", child.output()).isZero();
      }
    }
    List<Double> times = new ArrayList<>();
    List<String> slow = new ArrayList<>();
    double phases = 0;
    PrometheusText last = null;
    for (int run = 1; run <= REPEATS; run++) {
      int port = Http.freePort();
      try (WatchedChild child =
              WatchedChild.start(
                  "otel-" + order + "-run" + run, perf(order, port), MAIN, perfArgs(kafka));
          Scraper scraper = new Scraper(port)) {
        Duration bound = StartupChecks.bound("ProducerPerformance " + order + " run " + run, alone);
        double took = child.awaitExitAllowingSlow(bound, bound.plus(STUCK_AFTER));
        times.add(took);
        if (took * 1000 > bound.toMillis()) {
          slow.add(
              String.format(
                  Locale.ROOT, "run %d: %.2f s, threads in %s", run, took, child.outputFile()));
        }
        assertThat(child.exitCode())
            .as("exit code of run %d; output:%n%s", run, child.output())
            .isZero();
        assertThat(child.output()).doesNotContain(ChildJvm.ERRORS_AT_EXIT);
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
        "OpenTelemetry + Faultline, %s: OpenTelemetry alone %.2f s, both %s%n",
        order,
        alone,
        times.stream().map(t -> String.format(Locale.ROOT, "%.2f", t)).toList());
    slow.forEach(line -> System.out.println("  past the bound: " + line));
    assertThat(slow)
        .as("runs that ended past their bound (OpenTelemetry alone %.2f s + margin)", alone)
        .hasSizeLessThanOrEqualTo(1);
    assertThat(phases).as("produce requests timed by Faultline in some run").isPositive();
    StartupChecks.assertStartupBlockedBelowATenth(last);
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
