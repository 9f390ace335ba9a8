package io.faultline.it.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of each live thread of this process at one moment, the JIT compiler threads marked,
 * from one pass over {@code /proc/self/task} (the threads' names and their {@code schedstat} run
 * time, which counts to the nanosecond, where the process total of {@code
 * OperatingSystemMXBean.getProcessCpuTime} counts 10 ms ticks: 3 % of a capped producer's window).
 * The benchmark children report the compilers' CPU apart from the rest of theirs, since late C2
 * compilations land in a measured window at random and would swing an agent's CPU ratio by more
 * than the agent costs. Linux only, like the benchmarks.
 *
 * <p>The CPU between two snapshots is taken per thread: a thread that ended in between takes out
 * only its own time in between, never what it had before (a sum over live threads at each end lost
 * all of it: a child's CPU in a turn read -49 ms), and the process's and the JIT's share come from
 * the same reads, so the JIT's never exceeds the process's.
 *
 * <p>A snapshot is taken at each turn's start and end, inside the measured window, so it uses no
 * streams and no regular expressions: the first snapshots, run cold, made the JIT deoptimise and
 * recompile the JDK's stream and regex code there (class-check traps at each turn's start).
 */
final class ThreadCpuSnapshot {

  private record Task(long nanos, boolean compiler) {}

  private final Map<String, Task> tasks;

  private ThreadCpuSnapshot(Map<String, Task> tasks) {
    this.tasks = tasks;
  }

  /** The threads' CPU time now. */
  static ThreadCpuSnapshot take() {
    String[] ids = new File("/proc/self/task").list();
    if (ids == null) {
      throw new java.io.UncheckedIOException(
          new IOException("cannot list /proc/self/task (Linux only)"));
    }
    Map<String, Task> tasks = new HashMap<>();
    for (String id : ids) {
      Path dir = Path.of("/proc/self/task", id);
      try {
        tasks.put(id, new Task(TaskRunTime.nanos(dir), isCompilerThread(dir)));
      } catch (IOException | RuntimeException e) {
        // the thread ended meanwhile
      }
    }
    return new ThreadCpuSnapshot(tasks);
  }

  /** A snapshot of no threads: the CPU since it is each live thread's whole time. */
  static ThreadCpuSnapshot empty() {
    return new ThreadCpuSnapshot(Map.of());
  }

  /** CPU time of every thread alive now since {@code earlier} (or since its start), ns. */
  long cpuSince(ThreadCpuSnapshot earlier) {
    return since(earlier, false);
  }

  /** The same for the JIT compiler threads alone, ns. */
  long jitSince(ThreadCpuSnapshot earlier) {
    return since(earlier, true);
  }

  private long since(ThreadCpuSnapshot earlier, boolean compilersOnly) {
    long total = 0;
    for (Map.Entry<String, Task> e : tasks.entrySet()) {
      if (compilersOnly && !e.getValue().compiler()) {
        continue;
      }
      Task before = earlier.tasks.get(e.getKey());
      total += Math.max(0, e.getValue().nanos() - (before == null ? 0 : before.nanos()));
    }
    return total;
  }

  /**
   * Whether {@code task} (a folder of {@code /proc/self/task}) is a JIT compiler thread.
   *
   * @throws IOException when the thread has ended meanwhile
   */
  private static boolean isCompilerThread(Path task) throws IOException {
    // HotSpot names them "C1 CompilerThread0", "C2 CompilerThread1", …, cut to 15 characters.
    String comm = Files.readString(task.resolve("comm"));
    return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
  }
}
