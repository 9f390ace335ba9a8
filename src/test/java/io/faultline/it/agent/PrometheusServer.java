package io.faultline.it.agent;

import io.faultline.it.examples.Json;
import java.io.File;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (Debian's {@code prometheus} package) scraping the given targets once a
 * second, with the given rule files, its data in a temporary directory; queried through its HTTP
 * API. {@link #close} stops it.
 */
final class PrometheusServer implements AutoCloseable {

  /** One scrape job. */
  record Job(String name, List<Integer> ports) {}

  private final Process process;
  private final Path dir;
  private final String base;

  private PrometheusServer(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.base = "http://127.0.0.1:" + port;
  }

  /** The {@code prometheus} executable on the PATH, if installed. */
  static Optional<Path> executable() {
    for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(entry, "prometheus");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Starts it and waits until it is ready. */
  static PrometheusServer start(Path executable, List<Job> jobs, List<Path> ruleFiles)
      throws IOException, InterruptedException {
    return start(executable, jobs, ruleFiles, List.of());
  }

  /** The same, with {@code flags} added to its command line (e.g. feature flags). */
  static PrometheusServer start(
      Path executable, List<Job> jobs, List<Path> ruleFiles, List<String> flags)
      throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("faultline-prometheus");
    StringBuilder config = new StringBuilder();
    config.append("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n");
    if (!ruleFiles.isEmpty()) {
      config.append("rule_files:\n");
      ruleFiles.forEach(f -> config.append("  - '").append(f.toAbsolutePath()).append("'\n"));
    }
    config.append("scrape_configs:\n");
    for (Job job : jobs) {
      config.append("  - job_name: '").append(job.name()).append("'\n");
      config.append("    static_configs:\n      - targets: [");
      List<String> targets = new ArrayList<>();
      job.ports().forEach(p -> targets.add("'127.0.0.1:" + p + "'"));
      config.append(String.join(", ", targets)).append("]\n");
    }
    Path file = dir.resolve("prometheus.yml");
    Files.writeString(file, config);
    int port = Http.freePort();
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.add("--config.file=" + file);
    command.add("--storage.tsdb.path=" + dir.resolve("data"));
    command.add("--web.listen-address=127.0.0.1:" + port);
    command.addAll(flags);
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("prometheus.log").toFile())
            .start();
    PrometheusServer server = new PrometheusServer(process, dir, port);
    try {
      Http.awaitOk(server.base + "/-/ready", Duration.ofSeconds(60));
    } catch (AssertionError e) {
      String log = Files.readString(dir.resolve("prometheus.log"));
      server.close();
      throw new AssertionError("Prometheus did not start:\n" + log, e);
    }
    return server;
  }

  /**
   * {@code expr} over the last {@code seconds} at one-second steps: the API's {@code data} ({@code
   * resultType}, {@code result}). Fails on an error, naming it.
   */
  @SuppressWarnings("unchecked")
  Map<String, Object> queryRange(String expr, long seconds) throws Exception {
    long end = System.currentTimeMillis() / 1000;
    return call(
        "/api/v1/query_range?query="
            + URLEncoder.encode(expr, StandardCharsets.UTF_8)
            + "&start="
            + (end - seconds)
            + "&end="
            + end
            + "&step=1");
  }

  /** {@code expr} now: the API's {@code data}. */
  Map<String, Object> query(String expr) throws Exception {
    return call("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
  }

  /** The loaded rule groups: the API's {@code data}. */
  Map<String, Object> rules() throws Exception {
    return call("/api/v1/rules");
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> call(String path) throws Exception {
    HttpResponse<String> response = Http.get(base + path);
    Map<String, Object> body = (Map<String, Object>) Json.parse(response.body());
    if (response.statusCode() != 200 || !"success".equals(body.get("status"))) {
      throw new AssertionError(path + " answered " + response.statusCode() + ": " + body);
    }
    return (Map<String, Object>) body.get("data");
  }

  /** Its log so far. */
  String log() throws IOException {
    return Files.readString(dir.resolve("prometheus.log"));
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind is not worth failing the test for
    }
  }
}
