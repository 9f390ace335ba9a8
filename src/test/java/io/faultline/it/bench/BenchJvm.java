package io.faultline.it.bench;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Starts benchmark child JVMs on the suite's JDK with one of the {@link Variant}s. */
final class BenchJvm {

  /** What is attached to the child. */
  enum Variant {
    NO_AGENT("no agent"),
    FAULTLINE("Faultline agent"),
    OTEL("OpenTelemetry agent"),
    BOTH("Faultline + OpenTelemetry"),
    /** The Faultline agent built from an earlier revision ({@code ./benchmarks against}). */
    REFERENCE("Faultline agent, reference build");

    final String label;

    Variant(String label) {
      this.label = label;
    }
  }

  private BenchJvm() {}

  /** The built, shaded Faultline agent (set by src/test/pom.xml). */
  static Path faultlineAgent() {
    return requiredFile("faultline.it.agent.jar", "./mvnw -pl src/test -am verify builds it");
  }

  /** The agent {@link Variant#REFERENCE} attaches: an earlier build of Faultline's. */
  static Path referenceAgent() {
    return requiredFile(
        "faultline.bench.reference.agent", "./benchmarks against <revision> builds and names it");
  }

  /** The OpenTelemetry Java agent (copied by the benchmarks profile of src/test/pom.xml). */
  static Path otelAgent() {
    return requiredFile("faultline.bench.otel.jar", "run with -Pbenchmarks (see ./benchmarks)");
  }

  private static Path requiredFile(String property, String how) {
    String value = System.getProperty(property);
    if (value == null || !Files.isRegularFile(Path.of(value))) {
      throw new IllegalStateException(property + " = " + value + " is not a file; " + how);
    }
    return Path.of(value).toAbsolutePath().normalize();
  }

  /**
   * The JVM options that attach {@code variant}, Faultline with every feature on; {@code
   * -Dfaultline.bench.agent-args=kafka.phases=off,...} adds agent arguments, to find which feature
   * costs what (the published run uses none). {@code -Dfaultline.bench.reference.agent-args} gives
   * the reference build its own instead: with this build's jar as the reference, one feature's cost
   * is read in the same rounds as the whole agent's.
   */
  static List<String> agentOptions(Variant variant) {
    return switch (variant) {
      case NO_AGENT -> List.of();
      case FAULTLINE ->
          faultlineOptions(faultlineAgent(), extraAgentArgs("faultline.bench.agent-args"));
      // The same arguments unless told: an earlier build warns of a key it does not know, and runs.
      case REFERENCE ->
          faultlineOptions(
              referenceAgent(),
              System.getProperty("faultline.bench.reference.agent-args") == null
                  ? extraAgentArgs("faultline.bench.agent-args")
                  : extraAgentArgs("faultline.bench.reference.agent-args"));
      case OTEL ->
          List.of(
              "-javaagent:" + otelAgent(),
              "-Dotel.traces.exporter=none",
              "-Dotel.metrics.exporter=none",
              "-Dotel.logs.exporter=none",
              "-Dotel.javaagent.logging=none");
      // Faultline first, as a pod spec's JAVA_TOOL_OPTIONS with the Operator's agent appended is.
      case BOTH -> {
        List<String> both = new java.util.ArrayList<>(agentOptions(Variant.FAULTLINE));
        both.addAll(agentOptions(Variant.OTEL));
        yield List.copyOf(both);
      }
    };
  }

  private static List<String> faultlineOptions(Path agent, String extraArgs) {
    return List.of(
        "-javaagent:" + agent + "=kafka.recycle=on,prometheus.port=" + freePort() + extraArgs);
  }

  private static String extraAgentArgs(String property) {
    String extra = System.getProperty(property, "").strip();
    return extra.isEmpty() ? "" : "," + extra;
  }

  /**
   * The child's class path: the suite's test classes (the child mains), kafka-clients and SLF4J —
   * never the suite's own unshaded Faultline classes, which would shadow the agent's.
   */
  static String classPath() {
    return join(
        List.of(
            testClasses(),
            jarOf(org.apache.kafka.clients.producer.KafkaProducer.class),
            jarOf(org.slf4j.LoggerFactory.class)));
  }

  private static Path jarOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@link #classPath()} with jOOQ (and what it needs), HikariCP and the PostgreSQL driver: what
   * {@link BenchLibraries} starts.
   */
  static String libraryClassPath() {
    return classPath()
        + File.pathSeparator
        + join(
            List.of(
                jarOf(org.jooq.impl.DSL.class),
                jarOf(org.reactivestreams.Publisher.class),
                jarOf(io.r2dbc.spi.ConnectionFactory.class),
                jarOf(com.zaxxer.hikari.HikariDataSource.class),
                jarOf(org.postgresql.Driver.class)));
  }

  /** The command for {@code mainClass args} with {@code options}. */
  static List<String> command(List<String> options, String mainClass, String... args) {
    return commandOn(classPath(), options, mainClass, args);
  }

  /** The command for {@code mainClass args} with {@code options} on {@code classPath}. */
  static List<String> commandOn(
      String classPath, List<String> options, String mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass);
    command.addAll(List.of(args));
    return command;
  }

  /**
   * More JVM options for the Kafka workloads' children, from {@code
   * -Dfaultline.bench.child-options} (space-separated), to look inside a run: {@code
   * -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -XX:+LogVMOutput -XX:-DisplayVMOutput
   * -XX:LogFile=<dir>/%p.log -Dbench.turn-marks=true} tells what compiled inside the measured
   * turns. The published run uses none.
   */
  static List<String> childOptions() {
    String options = System.getProperty("faultline.bench.child-options", "").strip();
    return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
  }

  /**
   * Writes a child's standard output to {@code name}.txt in {@code -Dfaultline.bench.child-output}
   * when that names a directory; else does nothing.
   */
  static void keepOutput(String name, String stdout) {
    String dir = System.getProperty("faultline.bench.child-output");
    if (dir == null) {
      return;
    }
    try {
      Files.createDirectories(Path.of(dir));
      Files.writeString(Path.of(dir, name + ".txt"), stdout);
    } catch (IOException e) {
      System.out.println("bench: could not keep " + name + "'s output in " + dir + ": " + e);
    }
  }

  /** The command for {@code java options -jar jar}: an executable jar, as a Boot service runs. */
  static List<String> jarCommand(List<String> options, Path jar) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.add("-jar");
    command.add(jar.toString());
    return command;
  }

  /** Runs to the end; returns standard output, or throws with both streams on a failure. */
  static String run(List<String> command, int timeoutSeconds) {
    try {
      Process p = new ProcessBuilder(command).start();
      CompletableFuture<String> out = drain(p.getInputStream());
      CompletableFuture<String> err = drain(p.getErrorStream());
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new IllegalStateException(
            "timed out after " + timeoutSeconds + " s: " + command + "\n" + err.get());
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            "exit " + p.exitValue() + ": " + command + "\n" + out.get() + "\n" + err.get());
      }
      return out.get();
    } catch (IOException | InterruptedException | java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("running " + command + " failed", e);
    }
  }

  /**
   * All of {@code in}, read on a thread of its own. Not {@code CompletableFuture.supplyAsync}: on
   * JDK 25 it runs on the common pool even on 2 CPUs (parallelism 1; JDK 17 starts a thread per
   * task), where one child's stream, blocked until the child ends, kept every other read waiting.
   */
  static CompletableFuture<String> drain(java.io.InputStream in) {
    CompletableFuture<String> text = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try {
                text.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                text.complete("(unreadable: " + e + ")");
              }
            },
            "bench-drain");
    reader.setDaemon(true);
    reader.start();
    return text;
  }

  /** A port free right now, for the agent's endpoint (never the fixed 9464). */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The folder of this suite's compiled test classes. */
  static Path testClasses() {
    return jarOf(BenchJvm.class);
  }

  static String join(List<Path> entries) {
    return String.join(File.pathSeparator, entries.stream().map(Path::toString).toList());
  }
}
