package io.faultline.it.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs benchmark children side by side, taking turns at their measured windows ({@link Turns}):
 * each child is started and warmed up alone, in order, while those before it wait; then they
 * measure in turns, one child at a time, in the same order each time, until every child has had all
 * its turns. Children measured one after the other, tens of seconds apart each, compared the host's
 * moments more than the children: the same child's CPU per record moved by ±15 % from one run to
 * the next on this 2-core host. In turns of a few seconds, every child's window spans the same
 * stretch of time.
 */
final class TakingTurns {

  private static final String EOF = "\u0000eof";

  private TakingTurns() {}

  /**
   * Runs {@code commands} (each a child that takes {@code turns} turns) and returns each one's
   * standard output, in order; throws with the child's standard error if one fails or takes longer
   * than {@code timeoutSeconds} for its warm-up or for a turn.
   */
  static List<String> run(List<List<String>> commands, int turns, int timeoutSeconds) {
    List<Child> children = new ArrayList<>();
    try {
      for (List<String> command : commands) {
        Child child = Child.start(command);
        children.add(child);
        child.await(Turns.READY, timeoutSeconds);
      }
      for (int turn = 0; turn < turns; turn++) {
        for (Child child : children) {
          child.say(Turns.GO);
          child.await(Turns.DONE, timeoutSeconds);
        }
      }
      List<String> outputs = new ArrayList<>();
      for (Child child : children) {
        outputs.add(child.finish(timeoutSeconds));
      }
      return outputs;
    } finally {
      children.forEach(Child::kill);
    }
  }

  private static final class Child {
    private final List<String> command;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder stdout = new StringBuilder();
    private final CompletableFuture<String> stderr;

    private Child(List<String> command, Process process) {
      this.command = command;
      this.process = process;
      this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      this.stderr = BenchJvm.drain(process.getErrorStream());
      Thread reader = new Thread(this::read, "turns-stdout");
      reader.setDaemon(true);
      reader.start();
    }

    static Child start(List<String> command) {
      try {
        return new Child(command, new ProcessBuilder(command).start());
      } catch (IOException e) {
        throw new IllegalStateException("could not start " + command, e);
      }
    }

    private void read() {
      try (BufferedReader in =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          synchronized (stdout) {
            stdout.append(line).append('\n');
          }
          lines.add(line);
        }
      } catch (IOException e) {
        // the child went away: EOF below says so
      }
      lines.add(EOF);
    }

    void say(String line) {
      try {
        stdin.write(line + "\n");
        stdin.flush();
      } catch (IOException e) {
        throw failed("could not write '" + line + "' to it: " + e);
      }
    }

    /** Waits for {@code expected} on its standard output, passing over other lines. */
    void await(String expected, int timeoutSeconds) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
      try {
        while (true) {
          String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
          if (line == null) {
            throw failed("no '" + expected + "' within " + timeoutSeconds + " s");
          }
          if (line.equals(expected)) {
            return;
          }
          if (line.equals(EOF)) {
            throw failed("it ended before saying '" + expected + "'");
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failed("interrupted");
      }
    }

    /** Waits for it to end; its standard output. */
    String finish(int timeoutSeconds) {
      try {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
          throw failed("it did not end within " + timeoutSeconds + " s of its last turn");
        }
        if (process.exitValue() != 0) {
          throw failed("exit " + process.exitValue());
        }
        await(EOF, timeoutSeconds); // every line read
        synchronized (stdout) {
          return stdout.toString();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failed("interrupted");
      }
    }

    void kill() {
      if (process.isAlive()) {
        process.destroyForcibly();
      }
    }

    private IllegalStateException failed(String why) {
      kill();
      String err;
      try {
        err = stderr.get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        err = "(standard error unreadable: " + e + ")";
      }
      String out;
      synchronized (stdout) {
        out = stdout.toString();
      }
      return new IllegalStateException(why + ": " + command + "\n" + out + "\n" + err);
    }
  }
}
