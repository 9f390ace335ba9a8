package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What the benchmarks ran on: cores, CPU model, memory, kernel, JDK, load average, date. */
final class MachineDescription {

  private MachineDescription() {}

  /** Markdown bullet lines; {@code loadAtStart} is /proc/loadavg's first three fields. */
  static String markdown(String loadAtStart, String date) {
    StringBuilder b = new StringBuilder();
    b.append("- date: ").append(date).append('\n');
    b.append("- cores (`nproc`): ").append(Runtime.getRuntime().availableProcessors()).append('\n');
    b.append("- CPU: ").append(cpuModel()).append('\n');
    b.append("- memory: ").append(memory()).append('\n');
    b.append("- kernel: ").append(read("/proc/sys/kernel/osrelease")).append('\n');
    b.append(
        String.format(
            Locale.ROOT,
            "- JDK: %s %s (%s)%n",
            System.getProperty("java.vm.vendor"),
            System.getProperty("java.runtime.version"),
            System.getProperty("java.vm.name")));
    b.append("- load average at start (1, 5, 15 min): ").append(loadAtStart).append('\n');
    b.append("- load average at the end: ").append(loadNow()).append('\n');
    return b.toString();
  }

  static String loadNow() {
    String[] f = read("/proc/loadavg").split(" ");
    return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "unknown";
  }

  private static String cpuModel() {
    for (String line : read("/proc/cpuinfo").split("\n")) {
      if (line.startsWith("model name")) {
        return line.substring(line.indexOf(':') + 1).strip();
      }
    }
    return "unknown";
  }

  private static String memory() {
    for (String line : read("/proc/meminfo").split("\n")) {
      if (line.startsWith("MemTotal:")) {
        long kib = Long.parseLong(line.replaceAll("[^0-9]", ""));
        return String.format(Locale.ROOT, "%.1f GiB", kib / 1048576.0);
      }
    }
    return "unknown";
  }

  private static String read(String path) {
    try {
      return Files.readString(Path.of(path)).strip();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
