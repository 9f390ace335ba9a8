package io.faultline.it.bench;

import java.util.Locale;

/**
 * One client-performance run: records, elapsed nanoseconds, bytes, latency percentiles in
 * microseconds and failures. Travels from a child JVM to the harness as one {@code perf-result}
 * line on standard output.
 */
record PerfResult(
    long records,
    long elapsedNanos,
    long bytes,
    long p50,
    long p99,
    long p999,
    long failed,
    long cpuNanos) {

  private static final String PREFIX = "perf-result ";

  double recordsPerSecond() {
    return records * 1e9 / elapsedNanos;
  }

  double megabytesPerSecond() {
    return bytes * 1e9 / elapsedNanos / (1024.0 * 1024.0);
  }

  /** CPU time the whole child process (every thread, an agent's too) spent per record, ns. */
  double cpuNanosPerRecord() {
    return records == 0 ? 0 : (double) cpuNanos / records;
  }

  /** This process's CPU time so far, every thread, nanoseconds. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  String toLine() {
    return String.format(
        Locale.ROOT,
        "%s%d %d %d %d %d %d %d %d",
        PREFIX,
        records,
        elapsedNanos,
        bytes,
        p50,
        p99,
        p999,
        failed,
        cpuNanos);
  }

  /** The result line in a child's standard output. */
  static PerfResult parse(String stdout) {
    for (String line : stdout.split("\n")) {
      if (line.startsWith(PREFIX)) {
        String[] f = line.substring(PREFIX.length()).strip().split(" ");
        return new PerfResult(
            Long.parseLong(f[0]),
            Long.parseLong(f[1]),
            Long.parseLong(f[2]),
            Long.parseLong(f[3]),
            Long.parseLong(f[4]),
            Long.parseLong(f[5]),
            Long.parseLong(f[6]),
            Long.parseLong(f[7]));
      }
    }
    throw new IllegalStateException("no perf-result line in:\n" + stdout);
  }
}
