package io.faultline.core.host;

import java.util.Optional;

/**
 * The {@code NET_RX} row of {@code /proc/softirqs}: how many receive softirqs each CPU has run
 * since boot. Host-wide: a container sees the host's CPUs.
 */
final class Softirqs {

  private Softirqs() {}

  /** The per-CPU NET_RX counts, in CPU column order; empty when the row is not there. */
  public static Optional<long[]> netRx(String text) {
    for (String line : text.split("\n")) {
      String trimmed = line.trim();
      if (trimmed.startsWith("NET_RX:")) {
        String[] parts = trimmed.substring("NET_RX:".length()).trim().split("\\s+");
        long[] counts = new long[parts.length];
        try {
          for (int i = 0; i < parts.length; i++) {
            counts[i] = Long.parseLong(parts[i]);
          }
        } catch (NumberFormatException e) {
          return Optional.empty();
        }
        return Optional.of(counts);
      }
    }
    return Optional.empty();
  }

  /** Reads {@code proc/softirqs} under {@code proc}. */
  public static Optional<long[]> readNetRx(ProcFs proc) {
    return proc.read("proc/softirqs").flatMap(Softirqs::netRx);
  }
}
