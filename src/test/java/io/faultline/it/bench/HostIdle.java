package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The host's idle CPU time so far, all CPUs together ({@code /proc/stat}'s idle and iowait, in
 * clock ticks of 10 ms): whether a benchmark kept the host's CPUs busy. 0 where /proc/stat is not
 * there.
 */
final class HostIdle {

  private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

  private HostIdle() {}

  static long nanos() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
        if (line.startsWith("cpu ")) {
          String[] f = line.trim().split("\\s+");
          return (Long.parseLong(f[4]) + Long.parseLong(f[5])) * NANOS_PER_TICK;
        }
      }
    } catch (IOException | RuntimeException unreadable) {
      // not Linux
    }
    return 0;
  }
}
