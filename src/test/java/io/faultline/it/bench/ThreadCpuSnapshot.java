package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU time of each live thread of this process at one moment, the JIT compiler threads marked,
 * from one pass over {@code /proc/self/task}. The CPU between two snapshots is taken per thread: a
 * thread that ended in between takes out only its own time in between, never what it had before (a
 * sum over live threads at each end lost all of it: a child's CPU in a turn read -49 ms), and the
 * process's and the JIT's share come from the same reads, so the JIT's never exceeds the process's.
 */
final class ThreadCpuSnapshot {

  private final Map<String, Long> nanos;
  private final Map<String, Boolean> compiler;

  private ThreadCpuSnapshot(Map<String, Long> nanos, Map<String, Boolean> compiler) {
    this.nanos = nanos;
    this.compiler = compiler;
  }

  /** The threads' CPU time now. */
  static ThreadCpuSnapshot take() {
    Map<String, Long> nanos = new HashMap<>();
    Map<String, Boolean> compiler = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String id = task.getFileName().toString();
          nanos.put(id, TaskRunTime.nanos(task));
          compiler.put(id, CompilerCpu.isCompilerThread(task));
        } catch (IOException | RuntimeException e) {
          // the thread ended meanwhile
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot list /proc/self/task", e);
    }
    return new ThreadCpuSnapshot(nanos, compiler);
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
    for (Map.Entry<String, Long> e : nanos.entrySet()) {
      if (compilersOnly && !compiler.get(e.getKey())) {
        continue;
      }
      total += Math.max(0, e.getValue() - earlier.nanos.getOrDefault(e.getKey(), 0L));
    }
    return total;
  }
}
