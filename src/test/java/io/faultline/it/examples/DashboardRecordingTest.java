package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.examples.app.DashboardWorkloadApp;
import io.faultline.it.servers.Brokers;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Records the input of the dashboard picture: {@link DashboardWorkloadApp} runs with the built
 * agent against real brokers and a real PostgreSQL while its {@code /metrics} is scraped once a
 * second into {@code DIR/<epoch-millis>.prom}; a broker is stopped for 20 s a third of the way in,
 * so the reconnect gate has work. Off by default (it takes about two minutes):
 *
 * <pre>
 * ./mvnw -B verify -pl src/test -am -Dtest=DashboardRecordingTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dfaultline.dashboard.record=$PWD/target/scrapes
 * python3 docs/grafana/render_dashboard.py target/scrapes docs/grafana/dashboard.png
 * </pre>
 */
@ExtendWith(RealServers.class)
@EnabledIfSystemProperty(named = "faultline.dashboard.record", matches = ".+")
class DashboardRecordingTest {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void recordsAScrapeASecond(
      @Brokers(value = 2, dedicated = true) KafkaCluster kafka, PostgresServer postgres)
      throws Exception {
    Path dir = Path.of(System.getProperty("faultline.dashboard.record")).toAbsolutePath();
    int seconds = Integer.getInteger("faultline.dashboard.seconds", 120);
    Files.createDirectories(dir);
    try (Stream<Path> old = Files.list(dir)) {
      for (Path p : old.filter(p -> p.toString().endsWith(".prom")).toList()) {
        Files.delete(p);
      }
    }
    String topic = "orders-" + UUID.randomUUID();
    kafka.createTopic(topic, 4);
    int port = freePort();
    String agentArgs =
        String.join(
            ",",
            "prometheus.port=" + port,
            "jooq.statement-timeout=500ms",
            "jooq.health.interval=2s",
            "kafka.tcp.interval=1s",
            "net.churn.interval=2s");
    Path agent = Path.of(System.getProperty("faultline.it.agent.jar"));
    ProcessBuilder builder =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-javaagent:" + agent + "=" + agentArgs,
            "-cp",
            System.getProperty("java.class.path"),
            DashboardWorkloadApp.class.getName(),
            kafka.bootstrapServers(),
            topic,
            postgres.jdbcUrl(),
            postgres.username(),
            postgres.password());
    File log = dir.resolveSibling(dir.getFileName() + "-workload.log").toFile();
    builder.redirectErrorStream(true).redirectOutput(log);
    Process child = builder.start();
    try {
      String base = "http://127.0.0.1:" + port + "/metrics";
      awaitUp(base, child);
      awaitReady(log.toPath(), child);
      KafkaNode lost = kafka.nodes().get(0);
      int written = 0;
      long next = System.currentTimeMillis();
      for (int s = 0; s < seconds; s++) {
        if (s == seconds / 3) {
          lost.stop();
        } else if (s == seconds / 3 + 20) {
          lost.start();
        }
        next += 1000;
        HttpResponse<String> r = get(base);
        if (r != null && r.statusCode() == 200) {
          Files.writeString(
              dir.resolve(System.currentTimeMillis() + ".prom"), r.body(), StandardCharsets.UTF_8);
          written++;
        }
        Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
      }
      System.out.printf("[dashboard] %d scrapes in %s (workload log %s)%n", written, dir, log);
      assertThat(written).isGreaterThanOrEqualTo(seconds * 9 / 10);
      List<Path> files;
      try (Stream<Path> all = Files.list(dir)) {
        files = all.filter(p -> p.toString().endsWith(".prom")).sorted().toList();
      }
      String last = Files.readString(files.get(files.size() - 1));
      assertThat(last)
          .contains(
              "faultline_jooq_savepoints_total",
              "faultline_kafka_request_phase_seconds",
              "faultline_kafka_connection_window_scaling_boolean",
              "faultline_pg_multixact_age_multixacts",
              "faultline_net_connects_connections_total");
    } finally {
      try (OutputStream in = child.getOutputStream()) {
        in.write("stop\n".getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // already gone
      }
      if (!child.waitFor(60, TimeUnit.SECONDS)) {
        child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private static void awaitUp(String url, Process child) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      assertThat(child.isAlive()).as("the workload JVM is running").isTrue();
      HttpResponse<String> r = get(url);
      if (r != null && r.statusCode() == 200) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("no /metrics at " + url + " within 60 s");
  }

  /** Scrapes start when the workload is at work (its table filled, its clients made). */
  private static void awaitReady(Path log, Process child) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      assertThat(child.isAlive()).as("the workload JVM is running").isTrue();
      if (Files.readAllLines(log, StandardCharsets.UTF_8).contains("ready")) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the workload did not print ready within 180 s; see " + log);
  }

  private static HttpResponse<String> get(String url) throws InterruptedException {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
