package io.faultline.it.bench;

import java.util.Locale;

/**
 * One client-performance run: records, elapsed nanoseconds, bytes, latency percentiles in
 * microseconds, failures, the process's CPU time, the warm-up before the measurement (until the JIT
 * went quiet, see {@link JitQuiet}) and the JIT compiler threads' CPU time within the measurement
 * ({@link ThreadCpuSnapshot}). Travels from a child JVM to the harness as one {@code perf-result}
 * line on standard output.
 */
public record PerfResult(
    long records,
    long elapsedNanos,
    long bytes,
    long p50,
    long p99,
    long p999,
    long failed,
    long cpuNanos,
    long warmupNanos,
    boolean warmupQuiet,
    long jitCpuNanos) {

  private static final String PREFIX = "perf-result ";

  /** Measured records a second. */
  public double recordsPerSecond() {
    return records * 1e9 / elapsedNanos;
  }

  double megabytesPerSecond() {
    return bytes * 1e9 / elapsedNanos / (1024.0 * 1024.0);
  }

  /**
   * CPU time the child process spent per record, ns: every thread (an agent's too) but the JIT
   * compilers', whose late compilations land in a window at random ({@link #jitMillis} has them).
   */
  double cpuNanosPerRecord() {
    return records == 0 ? 0 : (double) Math.max(0, cpuNanos - jitCpuNanos) / records;
  }

  /** The JIT compiler threads' CPU time within the measurement, ms. */
  long jitMillis() {
    return jitCpuNanos / 1_000_000;
  }

  /** The warm-up's length, seconds. */
  double warmupSeconds() {
    return warmupNanos / 1e9;
  }

  String toLine() {
    return String.format(
        Locale.ROOT,
        "%s%d %d %d %d %d %d %d %d %d %b %d",
        PREFIX,
        records,
        elapsedNanos,
        bytes,
        p50,
        p99,
        p999,
        failed,
        cpuNanos,
        warmupNanos,
        warmupQuiet,
        jitCpuNanos);
  }

  /** The result line in a child's standard output. */
  public static PerfResult parse(String stdout) {
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
            Long.parseLong(f[7]),
            Long.parseLong(f[8]),
            Boolean.parseBoolean(f[9]),
            Long.parseLong(f[10]));
      }
    }
    throw new IllegalStateException("no perf-result line in:\n" + stdout);
  }
}
