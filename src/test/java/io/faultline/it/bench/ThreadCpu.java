package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Per-thread CPU time of a benchmark child over its measured window, JIT and GC threads included
 * (read from {@code /proc/self/task}, so Linux only), printed to standard error when {@code
 * -Dbench.threads=true}: which thread an agent's extra CPU goes to. Not a {@code faultline.}
 * property: the agent in the child reads those as its own and warns about one it does not know.
 */
final class ThreadCpu {

  private static final double TICK_MS = 10; // USER_HZ = 100 on Linux

  private final Map<String, Long> start = snapshot();

  private ThreadCpu() {}

  /** Starts a window, or returns null when the property is off. */
  static ThreadCpu startIfAsked() {
    return Boolean.getBoolean("bench.threads") ? new ThreadCpu() : null;
  }

  /** Thread id and name → utime + stime in ticks. */
  private static Map<String, Long> snapshot() {
    Map<String, Long> ticks = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      tasks.forEach(
          t -> {
            try {
              String stat = Files.readString(t.resolve("stat"));
              String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
              String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
              ticks.put(
                  t.getFileName() + " " + name, Long.parseLong(f[11]) + Long.parseLong(f[12]));
            } catch (IOException | RuntimeException e) {
              // the thread ended meanwhile
            }
          });
    } catch (IOException e) {
      System.err.println("thread-cpu unavailable: " + e);
    }
    return ticks;
  }

  /** Prints each thread's CPU since the start, most first. */
  void print() {
    snapshot().entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - start.getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() > 0)
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(
            e ->
                System.err.printf(
                    "thread-cpu %-50s %8.0f ms%n", e.getKey(), e.getValue() * TICK_MS));
  }
}
