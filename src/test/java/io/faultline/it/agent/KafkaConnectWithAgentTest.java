package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Kafka Connect worker (Apache Kafka's own {@code ConnectStandalone}, 4.3.1, with its file
 * connectors) against the real broker, without and with the agent. One worker runs a source (a file
 * into a topic) and a sink (the topic into another file): with the agent, a line must come through
 * within a bound close to the run without it, and the agent must have timed the worker's produce
 * and fetch requests without an error of its own.
 *
 * <p>The worker scans its class path for plugins at start-up, the agent's jar included, and runs
 * Jetty, Jersey and HK2: software whose class loading the agent must leave alone.
 */
@ExtendWith(RealServers.class)
@Tag("real-world")
class KafkaConnectWithAgentTest {

  @Test
  void aLineGoesThroughSourceAndSinkAsFastAsWithoutTheAgent(KafkaCluster kafka) throws Exception {
    double without;
    try (Worker worker = Worker.start(kafka, "without", null)) {
      without = worker.firstLineWithin(Duration.ofSeconds(120));
    }
    int port = Http.freePort();
    try (Worker worker = Worker.start(kafka, "with", port)) {
      double with =
          worker.firstLineWithin(
              StartupChecks.bound("kafka connect standalone (first line)", without));
      StartupChecks.report("kafka connect standalone (first line)", without, with);
      PrometheusText metrics =
          StartupChecks.awaitMetrics(
              port,
              m ->
                  StartupChecks.producePhases(m) >= 1
                      && m.sum(
                              "faultline_kafka_request_phase_seconds_count",
                              Map.of("api", "fetch", "client_type", "consumer"))
                          >= 1,
              "the worker's produce and fetch requests timed",
              Duration.ofSeconds(30));
      assertThat(metrics.sum("faultline_agent_errors_total", Map.of()))
          .as("suppressed agent errors")
          .isZero();
      StartupChecks.assertStartupBlockedBelowATenth(metrics);
      // A line written after start-up comes through too: the woven clients keep working.
      worker.nextLineWithin(Duration.ofSeconds(60));
    }
  }

  /** One standalone worker with a file source and a file sink on a topic of its own. */
  private static final class Worker implements AutoCloseable {
    private final WatchedChild child;
    private final Path source;
    private final Path sink;

    private Worker(WatchedChild child, Path source, Path sink) {
      this.child = child;
      this.source = source;
      this.sink = sink;
    }

    static Worker start(KafkaCluster kafka, String name, Integer agentPort) throws IOException {
      Path libs = connectLibs();
      Path dir = TestPaths.workDir("connect-" + name);
      // Names of the run's own: a sink reusing the last run's group would wait for the killed
      // worker's member to time out of it.
      String run = UUID.randomUUID().toString().substring(0, 8);
      String topic = "connect-lines-" + run;
      // Created first: a sink subscribed to a topic that does not exist yet finds it only at a
      // later metadata refresh, which would be timed here as the worker's start-up.
      kafka.createTopic(topic, 1);
      Path source = dir.resolve("source.txt");
      Path sink = dir.resolve("sink.txt");
      Files.writeString(source, "");
      Path worker =
          write(
              dir.resolve("worker.properties"),
              "bootstrap.servers=" + kafka.bootstrapServers(),
              "key.converter=org.apache.kafka.connect.storage.StringConverter",
              "value.converter=org.apache.kafka.connect.storage.StringConverter",
              "offset.storage.file.filename=" + dir.resolve("offsets"),
              "offset.flush.interval.ms=1000",
              "listeners=http://127.0.0.1:" + Http.freePort());
      Path sourceConnector =
          write(
              dir.resolve("source.properties"),
              "name=lines-in-" + run,
              "connector.class=org.apache.kafka.connect.file.FileStreamSourceConnector",
              "tasks.max=1",
              "file=" + source,
              "topic=" + topic);
      Path sinkConnector =
          write(
              dir.resolve("sink.properties"),
              "name=lines-out-" + run,
              "connector.class=org.apache.kafka.connect.file.FileStreamSinkConnector",
              "tasks.max=1",
              "file=" + sink,
              "topics=" + topic);
      ChildJvm jvm =
          ChildJvm.on(Jdk.current())
              .option(
                  "-Dlog4j2.configurationFile="
                      + TestPaths.kafkaDockerDir().resolve("log4j2.properties"))
              .classPath(libs.resolve("*"));
      if (agentPort == null) {
        jvm.withoutAgent();
      } else {
        jvm.agentArgs("prometheus.port=" + agentPort);
      }
      WatchedChild child =
          WatchedChild.start(
              "connect-standalone-" + name,
              jvm,
              "org.apache.kafka.connect.cli.ConnectStandalone",
              worker.toString(),
              sourceConnector.toString(),
              sinkConnector.toString());
      return new Worker(child, source, sink);
    }

    /**
     * Appends a line of this run's own to the source file and waits for it in the sink file, at
     * most {@code sinceStart} after the worker started; seconds from the worker's start.
     */
    double firstLineWithin(Duration sinceStart) throws Exception {
      long start = System.nanoTime() - Math.round(child.secondsSinceStart() * 1e9);
      return (awaitLineThrough(start + sinceStart.toNanos()) - start) / 1e9;
    }

    /** Appends another line and waits at most {@code timeout} for it in the sink file. */
    void nextLineWithin(Duration timeout) throws Exception {
      awaitLineThrough(System.nanoTime() + timeout.toNanos());
    }

    /** The moment (nanoTime) the line came through; fails at {@code deadline}. */
    private long awaitLineThrough(long deadline) throws Exception {
      String line = "line-" + UUID.randomUUID();
      Files.writeString(source, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
      while (System.nanoTime() < deadline) {
        if (Files.exists(sink) && Files.readString(sink).contains(line)) {
          return System.nanoTime();
        }
        if (!child.isAlive()) {
          throw new AssertionError("the Connect worker exited:\n" + child.output());
        }
        Thread.sleep(100);
      }
      throw child.stuck(line + " through source and sink in time");
    }

    @Override
    public void close() {
      child.close();
    }

    private static Path write(Path file, String... lines) throws IOException {
      return Files.writeString(file, String.join("\n", lines) + "\n");
    }

    private static Path connectLibs() {
      Path libs =
          Path.of(
              System.getProperty("faultline.it.connect.libs", "kafka-connect/target/connect-libs"));
      Assumptions.assumeTrue(
          Files.isDirectory(libs),
          "Connect worker's jars not copied (src/test/kafka-connect): " + libs);
      return libs;
    }
  }
}
