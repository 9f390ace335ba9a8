package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Per-thread CPU time of a benchmark child over its measured window, JIT and GC threads included
 * (each thread's {@code schedstat} run time in {@code /proc/self/task}, to the nanosecond, so Linux
 * only), printed to standard error when {@code -Dbench.threads=true}: which thread an agent's extra
 * CPU goes to. Not a {@code faultline.} property: the agent in the child reads those as its own and
 * warns about one it does not know.
 */
final class ThreadCpu {

  private final Map<String, Long> start = snapshot();

  private ThreadCpu() {}

  /** Starts a window, or returns null when the property is off. */
  static ThreadCpu startIfAsked() {
    return Boolean.getBoolean("bench.threads") ? new ThreadCpu() : null;
  }

  /** Thread id and name → run time in nanoseconds. */
  private static Map<String, Long> snapshot() {
    Map<String, Long> nanos = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      tasks.forEach(
          t -> {
            try {
              String name = Files.readString(t.resolve("comm")).strip();
              nanos.put(t.getFileName() + " " + name, TaskRunTime.nanos(t));
            } catch (IOException | RuntimeException e) {
              // the thread ended meanwhile
            }
          });
    } catch (IOException e) {
      System.err.println("thread-cpu unavailable: " + e);
    }
    return nanos;
  }

  /** Prints each thread's CPU since the start, most first. */
  void print() {
    snapshot().entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - start.getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() > 0)
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .forEach(
            e -> System.err.printf("thread-cpu %-50s %10.1f ms%n", e.getKey(), e.getValue() / 1e6));
  }
}
