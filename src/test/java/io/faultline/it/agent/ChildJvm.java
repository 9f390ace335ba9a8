package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM started with {@code -javaagent:} on the built, shaded agent jar: the only honest way
 * to test an agent (premain, the system class loader, the shaded classes, the JVM's exit).
 */
final class ChildJvm {

  /** The line the agent prints at exit when it suppressed errors; a test fails on it by default. */
  static final String ERRORS_AT_EXIT = "faultline: agent errors at exit";

  private final Path java;
  private final List<String> prefix = new ArrayList<>();
  private final List<String> jvmOptions = new ArrayList<>();
  private final List<Path> classPath = new ArrayList<>();
  private final Map<String, String> environment = new HashMap<>();
  private String agentArgs;
  private boolean withAgent = true;
  private boolean c1Only = true;

  private ChildJvm(Path java) {
    this.java = java;
  }

  /** A child on {@code jdk}. */
  static ChildJvm on(Jdk jdk) {
    jdk.assumeInstalled();
    return new ChildJvm(jdk.java());
  }

  /** The built agent jar. */
  static Path agentJar() {
    return requiredFile("faultline.it.agent.jar");
  }

  /** The shaded test fixtures (instrumentation modules and their target). */
  static Path fixturesJar() {
    return requiredFile("faultline.it.agent.fixtures.jar");
  }

  private static Path requiredFile(String property) {
    String value = System.getProperty(property);
    assertThat(value).as(property + " (set by src/test/pom.xml; run through ./mvnw)").isNotNull();
    Path path = Path.of(value).toAbsolutePath().normalize();
    assertThat(path).as("build the agent first: ./mvnw -pl agent -am package").isRegularFile();
    return path;
  }

  /** The suite's compiled test classes, which hold the child applications. */
  static Path testClasses() {
    try {
      return Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The jar (or folder) {@code type} was loaded from in this JVM. */
  static Path jarOf(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  ChildJvm agentArgs(String args) {
    this.agentArgs = args;
    return this;
  }

  /**
   * Lets the child compile with C2 as a service does: children stop at C1 by default, which starts
   * them sooner on two cores but is no base for a throughput figure.
   */
  ChildJvm fullCompiler() {
    this.c1Only = false;
    return this;
  }

  ChildJvm withoutAgent() {
    this.withAgent = false;
    return this;
  }

  /**
   * Runs the JVM through {@code command} (e.g. {@code unshare --net ...}), which execs the rest.
   */
  ChildJvm prefix(String... command) {
    prefix.addAll(List.of(command));
    return this;
  }

  ChildJvm option(String option) {
    jvmOptions.add(option);
    return this;
  }

  ChildJvm classPath(Path entry) {
    classPath.add(entry);
    return this;
  }

  ChildJvm env(String name, String value) {
    environment.put(name, value);
    return this;
  }

  /** The command line for {@code mainClass args}. */
  List<String> command(String mainClass, String... args) {
    List<String> command = new ArrayList<>(prefix);
    command.add(java.toString());
    command.add("-Xshare:auto");
    if (c1Only) {
      command.add("-XX:TieredStopAtLevel=1");
    }
    command.addAll(jvmOptions);
    if (withAgent) {
      command.add("-javaagent:" + agentJar() + (agentArgs == null ? "" : "=" + agentArgs));
    }
    List<String> cp = new ArrayList<>();
    cp.add(testClasses().toString());
    classPath.forEach(p -> cp.add(p.toString()));
    command.add("-cp");
    command.add(String.join(File.pathSeparator, cp));
    command.add(mainClass);
    command.addAll(List.of(args));
    return command;
  }

  /** Starts {@code mainClass}; the caller owns the process. */
  Running start(String mainClass, String... args) {
    ProcessBuilder builder = new ProcessBuilder(command(mainClass, args));
    builder.environment().putAll(environment);
    try {
      return new Running(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code mainClass} to the end (at most {@code timeoutSeconds}). */
  Result run(int timeoutSeconds, String mainClass, String... args) {
    return start(mainClass, args).awaitExit(timeoutSeconds);
  }

  /** A started child. */
  static final class Running implements AutoCloseable {
    private final Process process;
    private final CompletableFuture<String> stdout;
    private final CompletableFuture<String> stderr;

    Running(Process process) {
      this.process = process;
      this.stdout = drain(process.getInputStream());
      this.stderr = drain(process.getErrorStream());
    }

    private static CompletableFuture<String> drain(java.io.InputStream in) {
      return CompletableFuture.supplyAsync(
          () -> {
            try {
              return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
              return "(unreadable: " + e + ")";
            }
          });
    }

    /** Whether the child is still running. */
    boolean isAlive() {
      return process.isAlive();
    }

    /** The child's process id. */
    long pid() {
      return process.pid();
    }

    /** Sends a line to the child's standard input. */
    void send(String line) {
      try {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    Result awaitExit(int timeoutSeconds) {
      try {
        boolean exited = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!exited) {
          printThreadDump();
          // ProcessHandle's kill leaves the pipes open, so the drains read to the end (the dump
          // included); Process.destroyForcibly closes them under the drains.
          process.toHandle().destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
        return new Result(
            exited ? process.exitValue() : -1,
            exited,
            stdout.get(10, TimeUnit.SECONDS),
            stderr.get(10, TimeUnit.SECONDS));
      } catch (Exception e) {
        throw new IllegalStateException("waiting for the child JVM failed", e);
      }
    }

    /**
     * Asks a child that did not exit in time for its threads (SIGQUIT: the JVM prints them to its
     * standard output, which the result carries), so a hang says where it hangs.
     */
    private void printThreadDump() throws InterruptedException {
      try {
        new ProcessBuilder("kill", "-3", Long.toString(process.pid()))
            .redirectErrorStream(true)
            .start()
            .waitFor(5, TimeUnit.SECONDS);
        Thread.sleep(2_000);
      } catch (IOException e) {
        // No kill command: the result simply has no thread dump.
      }
    }

    @Override
    public void close() {
      if (process.isAlive()) {
        process.destroyForcibly();
      }
    }
  }

  /** What a child did. */
  record Result(int exitCode, boolean exited, String stdout, String stderr) {

    /** Exited 0 in time, and the agent reported no suppressed errors. */
    Result assertCleanExit() {
      assertThat(exited)
          .as("exited in time; stdout (with a thread dump):\n%s\nstderr:\n%s", stdout, stderr)
          .isTrue();
      assertThat(exitCode).as("exit code; stdout:\n%s\nstderr:\n%s", stdout, stderr).isZero();
      assertThat(stderr).as("the agent's suppressed-error report").doesNotContain(ERRORS_AT_EXIT);
      return this;
    }
  }

  /** Writes {@code text} to a fresh file under target/, for failure analysis. */
  static Path save(String name, String text) {
    try {
      Path dir = Path.of("target", "agent-tests");
      Files.createDirectories(dir);
      return Files.writeString(dir.resolve(name), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
