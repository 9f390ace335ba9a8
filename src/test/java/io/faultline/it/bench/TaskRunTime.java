package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One thread's CPU time so far, read from its {@code /proc/self/task/<tid>/schedstat}: the kernel's
 * run time in nanoseconds, where {@code stat} and {@code times()} count 10 ms ticks.
 */
final class TaskRunTime {

  private TaskRunTime() {}

  /**
   * The run time of {@code task} (a folder of {@code /proc/self/task}), nanoseconds.
   *
   * @throws IOException when the thread has ended meanwhile
   */
  static long nanos(Path task) throws IOException {
    String schedstat = Files.readString(task.resolve("schedstat"));
    return Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
  }
}
