package io.faultline.it.starter;

import io.faultline.it.servers.PostgresServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spring Boot application in a JVM of its own, its output in a file, its HTTP port read from it.
 */
public final class BootApp implements AutoCloseable {

  /**
   * The tag of the test classes that only run the suite's Spring Boot applications from their
   * executable jars. The jars pin their own Spring Boot and jOOQ versions, so a compatibility
   * profile's versions do not reach them, and the main pass already runs the Boot 4 application on
   * JDK 25: {@code .ci/run}'s compatibility pass leaves them out.
   */
  public static final String TAG = "boot-apps";

  private static final Pattern PORT = Pattern.compile("(?m)^port: (\\d+)$");

  private final Process process;
  private final Path output;
  private final Path java;
  private final HttpClient http = HttpClient.newHttpClient();

  private BootApp(Process process, Path output, Path java) {
    this.process = process;
    this.output = output;
    this.java = java;
  }

  /**
   * {@code java <launch...> --spring.datasource.*=<postgres> <arguments...>}, on the suite's JDK.
   */
  public static BootApp start(List<String> launch, PostgresServer postgres, String... arguments)
      throws IOException {
    return start(
        Path.of(System.getProperty("java.home"), "bin", "java"), launch, postgres, arguments);
  }

  /** The same on the JDK whose {@code java} is given. */
  public static BootApp start(
      Path java, List<String> launch, PostgresServer postgres, String... arguments)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.addAll(launch);
    command.add("--spring.datasource.url=" + postgres.jdbcUrl());
    command.add("--spring.datasource.username=" + postgres.username());
    command.add("--spring.datasource.password=" + postgres.password());
    command.addAll(List.of(arguments));
    Path output = Files.createTempFile("boot-app", ".log");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    return new BootApp(process, output, java);
  }

  /**
   * Runs {@code tool args} from the application's JDK ({@code jcmd}, {@code jfr}) and returns its
   * output, after checking it exited with 0.
   */
  public String runJdkTool(String tool, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(java.resolveSibling(tool).toString());
    command.addAll(List.of(args));
    // Into a file, not a pipe read to its end: a tool that hangs fails the test after the wait.
    Path log = Files.createTempFile("jdk-tool", ".log");
    try {
      Process run =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      boolean ended = run.waitFor(60, TimeUnit.SECONDS);
      if (!ended) {
        run.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      String out = Files.readString(log, StandardCharsets.UTF_8);
      if (!ended || run.exitValue() != 0) {
        throw new AssertionError(
            command + (ended ? " failed:\n" : " did not end in 60 s:\n") + out);
      }
      return out;
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** The application's process id. */
  public long pid() {
    return process.pid();
  }

  /** The output so far. */
  public String output() throws IOException {
    return Files.readString(output, StandardCharsets.UTF_8);
  }

  /** Waits for {@code line} in the output; fails with the output when the process ends first. */
  public String awaitLine(String line, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      String out = output();
      if (out.contains(line)) {
        return out;
      }
      if (!process.isAlive()) {
        throw new AssertionError("the application exited before printing '" + line + "':\n" + out);
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no '" + line + "' within " + timeout + ":\n" + output());
  }

  /** Waits for the process to exit; its exit code. */
  public int awaitExit(Duration timeout) throws Exception {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("did not exit within " + timeout + ":\n" + output());
    }
    return process.exitValue();
  }

  /** GET {@code path} on the application's port; the body, after checking the status is 200. */
  public String get(String path) throws Exception {
    return get(path, 200);
  }

  /** GET {@code path}; the body, after checking the status is {@code status}. */
  public String get(String path, int status) throws Exception {
    Matcher port = PORT.matcher(output());
    if (!port.find()) {
      throw new AssertionError("no port printed:\n" + output());
    }
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port.group(1) + path))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != status) {
      throw new AssertionError(
          "GET " + path + ": " + response.statusCode() + " " + response.body());
    }
    return response.body();
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    System.out.print(output());
    Files.deleteIfExists(output);
  }
}
