package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chaos tests' service ({@code ChaosServiceApp}) in a child JVM with the agent, every feature
 * on ({@code kafka.recycle=on} included): start it, watch its progress, read the agent's endpoint,
 * stop it and take its ledger.
 */
final class ChaosService implements AutoCloseable {

  /** What the agent is given: every feature on, sampling often enough for a short test. */
  static final String AGENT_SETTINGS =
      "kafka.recycle=on,kafka.recycle.samples=3,kafka.tcp.interval=1s,jooq.health.interval=2s,"
          + "jooq.pool-feedback.interval=1s,net.churn.interval=2s";

  static final int POOL_SIZE = 4;

  private static final Pattern FINDING =
      Pattern.compile(
          "\"id\":\"([A-Z_]+)\",\"severity\":\"[A-Z]+\",\"subject\":\"((?:[^\"\\\\]|\\\\.)*)\"");

  private final String name;
  private final String base;
  private final Path progress;
  private final Path ledger;
  private final ChildJvm.Running running;

  private ChaosService(
      String name, String base, Path progress, Path ledger, ChildJvm.Running running) {
    this.name = name;
    this.base = base;
    this.progress = progress;
    this.ledger = ledger;
    this.running = running;
  }

  /** Starts the service on a topic and a table of its own, named after {@code name}. */
  static ChaosService start(KafkaCluster kafka, PostgresServer postgres, String name)
      throws IOException {
    return start(kafka, postgres, name, true, "");
  }

  /**
   * Starts the service with {@code extraSettings} (e.g. {@code jooq.lock-timeout=2s}) added to
   * {@link #AGENT_SETTINGS}; empty for none.
   */
  static ChaosService start(
      KafkaCluster kafka, PostgresServer postgres, String name, String extraSettings)
      throws IOException {
    return start(kafka, postgres, name, true, extraSettings);
  }

  /**
   * Starts the service; without {@code keepLedger} it keeps counts only (the soak's mode: an hour
   * of ledger would grow the heap the soak watches) and its ledger at {@link #stop()} is empty.
   */
  static ChaosService start(
      KafkaCluster kafka, PostgresServer postgres, String name, boolean keepLedger)
      throws IOException {
    return start(kafka, postgres, name, keepLedger, "");
  }

  private static ChaosService start(
      KafkaCluster kafka,
      PostgresServer postgres,
      String name,
      boolean keepLedger,
      String extraSettings)
      throws IOException {
    String topic = "chaos-" + name;
    kafka.createTopic(topic, 3);
    int port = Http.freePort();
    Path dir = Files.createTempDirectory("chaos-" + name);
    Path progress = dir.resolve("progress");
    Path ledger = dir.resolve("ledger");
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs(
                "prometheus.port="
                    + port
                    + ","
                    + AGENT_SETTINGS
                    + (extraSettings.isEmpty() ? "" : "," + extraSettings))
            .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
            .classPath(ChildJvm.jarOf(org.jooq.impl.DSL.class))
            .classPath(ChildJvm.jarOf(org.reactivestreams.Publisher.class))
            .classPath(ChildJvm.jarOf(io.r2dbc.spi.ConnectionFactory.class))
            .classPath(ChildJvm.jarOf(com.zaxxer.hikari.HikariDataSource.class))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class))
            .classPath(ChildJvm.jarOf(org.postgresql.Driver.class));
    ChildJvm.Running running =
        child.start(
            "io.faultline.it.agent.app.ChaosServiceApp",
            kafka.bootstrapServers(),
            topic,
            postgres.jdbcUrl(),
            postgres.username(),
            postgres.password(),
            table(name),
            Integer.toString(POOL_SIZE),
            progress.toString(),
            ledger.toString(),
            keepLedger ? "ledger" : "counts");
    return new ChaosService(name, "http://127.0.0.1:" + port, progress, ledger, running);
  }

  /** The service's table. */
  static String table(String name) {
    return "chaos_" + name;
  }

  String name() {
    return name;
  }

  /** The service's latest progress line as numbers (empty before the first). */
  Map<String, Long> progress() {
    Map<String, Long> values = new HashMap<>();
    try {
      if (Files.exists(progress)) {
        for (String kv : Files.readString(progress).trim().split(" ")) {
          int eq = kv.indexOf('=');
          if (eq > 0) {
            values.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Read again on the next call.
    }
    return values;
  }

  /**
   * Waits until {@code done} holds for the progress, at most {@code timeout}; returns the seconds
   * waited, or fails naming what was missing.
   */
  double awaitProgress(String what, Duration timeout, Predicate<Map<String, Long>> done)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    Map<String, Long> last = progress();
    while (!done.test(last)) {
      assertThat(running.isAlive()).as("the service is running (" + what + ")").isTrue();
      assertThat(System.nanoTime()).as(what + "; progress " + last).isLessThan(deadline);
      Thread.sleep(100);
      last = progress();
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** Waits until the service acks records and commits transactions. */
  void awaitWorking() throws InterruptedException {
    Http.awaitOk(base + "/metrics", Duration.ofSeconds(60));
    awaitProgress(
        "the service produces and commits",
        Duration.ofSeconds(90),
        p -> p.getOrDefault("acked", 0L) >= 100 && p.getOrDefault("committed", 0L) >= 20);
  }

  /**
   * Seconds from {@code sinceMillis} (wall clock) until the service has both an ack and a commit
   * later than it, at most {@code timeout}.
   */
  double awaitRecoveredAfter(long sinceMillis, Duration timeout) throws InterruptedException {
    awaitProgress(
        "an ack and a commit after the fault ended",
        timeout,
        p ->
            p.getOrDefault("lastAck", 0L) > sinceMillis
                && p.getOrDefault("lastCommit", 0L) > sinceMillis);
    Map<String, Long> p = progress();
    return (Math.max(p.get("lastAck"), p.get("lastCommit")) - sinceMillis) / 1000.0;
  }

  /** The child JVM's process id. */
  long pid() {
    return running.pid();
  }

  /** Whether the child JVM is still running. */
  boolean isAlive() {
    return running.isAlive();
  }

  /** The agent's {@code /metrics} as text. */
  String scrape() throws InterruptedException {
    return Http.awaitOk(base + "/metrics", Duration.ofSeconds(30)).body();
  }

  /** Sends a command to the service's standard input. */
  void send(String command) {
    running.send(command);
  }

  /** The agent's {@code /metrics}. */
  PrometheusText metrics() throws InterruptedException {
    return PrometheusText.parse(Http.awaitOk(base + "/metrics", Duration.ofSeconds(30)).body());
  }

  /** The active findings as {@code ID subject}. */
  Set<String> activeFindings() throws InterruptedException {
    String body = Http.awaitOk(base + "/faultline/findings", Duration.ofSeconds(30)).body();
    Set<String> out = new TreeSet<>();
    Matcher m = FINDING.matcher(body);
    while (m.find()) {
      out.add(m.group(1) + " " + m.group(2));
    }
    return out;
  }

  /**
   * Stops the work, waits for the ledger (the producer and the consumer drained), reads the agent's
   * meters at rest, then lets the JVM exit and checks it exited cleanly.
   */
  Stopped stop() throws Exception {
    running.send("stop");
    long deadline = System.nanoTime() + Duration.ofSeconds(200).toNanos();
    while (!Files.exists(ledger) && System.nanoTime() < deadline && running.isAlive()) {
      Thread.sleep(100);
    }
    assertThat(ledger).as("the service wrote its ledger").exists();
    // The last transactions' meters are recorded as they end, before the ledger: one scrape
    // begun after the ledger sees them all.
    String scrape = Http.awaitOk(base + "/metrics", Duration.ofSeconds(30)).body();
    Set<String> findings = activeFindings();
    running.send("exit");
    ChildJvm.Result result = running.awaitExit(60);
    ChildJvm.save(
        "chaos-" + name + ".txt",
        result.stdout()
            + "\n--- stderr\n"
            + result.stderr()
            + "\n--- ledger\n"
            + Files.readString(ledger)
            + "\n--- metrics\n"
            + scrape);
    result.assertCleanExit();
    return new Stopped(
        ChaosLedger.parse(Files.readString(ledger)), PrometheusText.parse(scrape), findings);
  }

  /** What the service and the agent said once stopped. */
  record Stopped(ChaosLedger ledger, PrometheusText metrics, Set<String> findings) {}

  @Override
  public void close() {
    running.close();
  }
}
