package io.faultline.examples.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The demo service ({@code io.faultline.examples.demo.service.DemoService}) as a child JVM with
 * {@code -javaagent:} on the built agent jar, on a class path of its own libraries only. Commands
 * go to its standard input; its {@code @done}/{@code @failed} answers come back, everything else it
 * prints goes to {@code service.log}.
 */
final class ServiceProcess implements AutoCloseable {

  /** A command's answer: whether it succeeded, and its {@code key=value} pairs or the error. */
  record Reply(boolean ok, Map<String, String> values, String error) {
    String get(String key) {
      return values.getOrDefault(key, "");
    }
  }

  private final Process process;
  private final PrintWriter commands;
  private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
  private final Path log;

  private ServiceProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
    this.commands =
        new PrintWriter(
            new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8),
            true);
    Thread reader = new Thread(this::readOutput, "demo-service-output");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts the service and waits for it to be ready.
   *
   * @param agentArgs the agent's argument ({@code key=value,...})
   * @param args the service's arguments
   */
  static ServiceProcess start(DemoPaths paths, String agentArgs, Path log, List<String> args)
      throws IOException {
    if (!Files.isRegularFile(paths.agentJar())) {
      throw new IllegalStateException(
          paths.agentJar() + " is missing: build first (./demo does it)");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-javaagent:" + paths.agentJar() + "=" + agentArgs);
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.add("-cp");
    if (!Files.isRegularFile(paths.serviceClasspathFile())) {
      throw new IllegalStateException(
          paths.serviceClasspathFile() + " is missing: build first (./demo does it)");
    }
    command.add(
        paths.demoCode()
            + java.io.File.pathSeparator
            + Files.readString(paths.serviceClasspathFile()).strip());
    command.add("io.faultline.examples.demo.service.DemoService");
    command.addAll(args);
    Files.deleteIfExists(log);
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    ServiceProcess service = new ServiceProcess(builder.start(), log);
    String first = service.nextAnswer(Duration.ofMinutes(2));
    if (first == null || !first.equals("@ready")) {
      service.close();
      throw new IllegalStateException("the demo service did not start; its log: " + log);
    }
    return service;
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  /**
   * Sends {@code command} and waits up to {@code timeout} for its answer, calling {@code tick}
   * about every 200 ms meanwhile.
   */
  Reply call(String command, Duration timeout, Consumer<String> tick) {
    answers.clear();
    commands.println(command);
    String name = command.split(" ")[0];
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      String answer = nextAnswer(Duration.ofMillis(200));
      tick.accept("");
      if (answer == null) {
        if (!process.isAlive()) {
          return new Reply(false, Map.of(), "the service exited; its log: " + log);
        }
        continue;
      }
      if (answer.startsWith("@done " + name)) {
        return new Reply(true, pairs(answer.substring(("@done " + name).length())), "");
      }
      if (answer.startsWith("@failed " + name)) {
        return new Reply(false, Map.of(), answer.substring(("@failed " + name).length()).trim());
      }
    }
    return new Reply(false, Map.of(), command + ": no answer in " + timeout.toSeconds() + " s");
  }

  private static Map<String, String> pairs(String text) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String word : text.trim().split(" ")) {
      int eq = word.indexOf('=');
      if (eq > 0) {
        values.put(word.substring(0, eq), word.substring(eq + 1));
      }
    }
    return values;
  }

  private String nextAnswer(Duration wait) {
    try {
      return answers.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private void readOutput() {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Writer out =
            Files.newBufferedWriter(
                log.resolveSibling("service.out"),
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("@")) {
          answers.add(line);
        }
        out.write(line + "\n");
        out.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Asks the service to stop, then ends it if it does not within 20 s. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    try {
      commands.println("quit");
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  /** The lines the agent printed at exit about its own errors, if any. */
  String agentErrorsAtExit() {
    try {
      return Files.readAllLines(log).stream()
          .filter(l -> l.contains("faultline: agent errors at exit"))
          .findFirst()
          .orElse("");
    } catch (IOException e) {
      return "";
    }
  }
}
