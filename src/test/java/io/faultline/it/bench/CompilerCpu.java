package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The CPU time of this JVM's JIT compiler threads so far, read from {@code /proc/self/task} (the
 * threads' names and their {@code schedstat} run time, ns): the benchmark children report it apart
 * from the rest of their CPU, since late C2 compilations land in a measured window at random and
 * would swing an agent's CPU ratio by more than the agent costs. Linux only, like the benchmarks.
 */
final class CompilerCpu {

  private CompilerCpu() {}

  /** The compiler threads' CPU time so far, ns; 0 where {@code /proc} cannot be read. */
  static long nanos() {
    long total = 0;
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        total += compilerNanos(task);
      }
    } catch (IOException e) {
      return 0;
    }
    return total;
  }

  private static long compilerNanos(Path task) {
    try {
      if (!isCompilerThread(task)) {
        return 0;
      }
      return TaskRunTime.nanos(task);
    } catch (IOException | RuntimeException e) {
      return 0; // the thread ended meanwhile
    }
  }

  /**
   * Whether {@code task} (a folder of {@code /proc/self/task}) is a JIT compiler thread.
   *
   * @throws IOException when the thread has ended meanwhile
   */
  static boolean isCompilerThread(Path task) throws IOException {
    // HotSpot names them "C1 CompilerThread0", "C2 CompilerThread1", …, cut to 15 characters.
    return Files.readString(task.resolve("comm")).matches("C[12] CompilerThre.*\\s*");
  }
}
