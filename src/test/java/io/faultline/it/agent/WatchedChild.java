package io.faultline.it.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child process whose output (stdout and stderr together) goes to a file under target/ as it
 * runs, so a test can wait for a line while the child lives (a broker's "started", an application's
 * "done") and time it. A child that does not get there in time is asked for its threads (SIGQUIT),
 * killed, and the test fails with its output, the dump included.
 */
final class WatchedChild implements AutoCloseable {

  private final String name;
  private final Process process;
  private final Path output;
  private final long startNanos;

  private WatchedChild(String name, Process process, Path output, long startNanos) {
    this.name = name;
    this.process = process;
    this.output = output;
    this.startNanos = startNanos;
  }

  /** Starts {@code command}; its output goes to target/agent-tests/{@code name}.log. */
  static WatchedChild start(String name, List<String> command, Map<String, String> environment) {
    try {
      Path dir = Path.of("target", "agent-tests");
      Files.createDirectories(dir);
      Path output = dir.resolve(name + ".log");
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
      builder.environment().putAll(environment);
      long start = System.nanoTime();
      return new WatchedChild(name, builder.start(), output, start);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts {@code mainClass} of {@code child} (its command line, agent or not). */
  static WatchedChild start(String name, ChildJvm child, String mainClass, String... args) {
    return start(name, child.command(mainClass, args), Map.of());
  }

  /**
   * Seconds from the start until the output contains {@code text}; fails (thread dump, kill) when
   * it does not within {@code timeout} or the child exits first.
   */
  double awaitOutput(String text, Duration timeout) {
    return awaitOutputSince(startNanos, text, timeout);
  }

  /** Seconds from {@code from} (a {@code System.nanoTime()}) until the output has {@code text}. */
  private double awaitOutputSince(long from, String text, Duration timeout) {
    long deadline = from + timeout.toNanos();
    while (true) {
      if (output().contains(text)) {
        return (System.nanoTime() - from) / 1e9;
      }
      if (!process.isAlive()) {
        // The last lines may land after the exit was seen.
        if (output().contains(text)) {
          return (System.nanoTime() - from) / 1e9;
        }
        throw new AssertionError(
            name
                + " exited ("
                + process.exitValue()
                + ") before printing '"
                + text
                + "':\n"
                + output());
      }
      if (System.nanoTime() > deadline) {
        throw stuck("'" + text + "' within " + timeout.toSeconds() + " s");
      }
      sleep(25);
    }
  }

  /** Seconds from the start until the child exited, waiting at most {@code timeout} from now. */
  double awaitExit(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw stuck("exit within " + timeout.toSeconds() + " s");
      }
      return secondsSinceStart();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Seconds from the start until the child exited. One still running after {@code bound} has its
   * threads dumped into its output and may go on until {@code limit}: one that exits by then was
   * slow, not stuck (the caller compares the time with the bound); one that does not fails as
   * {@link #awaitExit} does.
   */
  double awaitExitAllowingSlow(Duration bound, Duration limit) {
    try {
      if (!process.waitFor(bound.toNanos(), TimeUnit.NANOSECONDS)) {
        threadDump();
        long left = startNanos + limit.toNanos() - System.nanoTime();
        if (!process.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
          throw stuck("exit within " + limit.toSeconds() + " s (over " + bound.toSeconds() + " s)");
        }
      }
      return secondsSinceStart();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Sends {@code stop}, then asserts a clean exit (0, no agent errors) within 30 s. */
  void stopCleanly() {
    send("stop");
    awaitExit(Duration.ofSeconds(30));
    org.assertj.core.api.Assertions.assertThat(exitCode())
        .as("%s's exit code; output:%n%s", name, output())
        .isZero();
    org.assertj.core.api.Assertions.assertThat(output())
        .as("%s: the agent's suppressed-error report", name)
        .doesNotContain(ChildJvm.ERRORS_AT_EXIT);
  }

  /** Waits for {@code text} within {@code timeout} of now (not of the start). */
  double awaitOutputFromNow(String text, Duration timeout) {
    return awaitOutputSince(System.nanoTime(), text, timeout);
  }

  /** The exit code, once exited. */
  int exitCode() {
    return process.exitValue();
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** The file its output goes to. */
  Path outputFile() {
    return output;
  }

  /** Everything the child printed so far. */
  String output() {
    try {
      return Files.readString(output, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
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

  double secondsSinceStart() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /**
   * The failure for a child that did not reach {@code what}: its threads dumped into its output,
   * the child killed, the output in the message.
   */
  AssertionError stuck(String what) {
    threadDump();
    kill();
    return new AssertionError(
        name + " did not reach " + what + " (killed after a thread dump); output:\n" + output());
  }

  /** SIGQUIT: the JVM prints its threads to its output, which the file keeps. */
  void threadDump() {
    try {
      new ProcessBuilder("kill", "-3", Long.toString(process.pid()))
          .redirectErrorStream(true)
          .start()
          .waitFor(5, TimeUnit.SECONDS);
      Thread.sleep(2_000);
    } catch (IOException e) {
      // No kill command: the failure has no dump.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void kill() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
  }
}
