package io.faultline.core.host;

/** Whose values a check reads, which matters in a container. */
public enum ReadingScope {
  /** The network namespace of the reader: TCP sysctls, {@code /proc/net/*}. */
  NETWORK_NAMESPACE,
  /** The whole host: {@code net.core.*} buffers, {@code /proc/softirqs}, NIC queues. */
  HOST,
  /** The kernel itself (its release). */
  KERNEL;

  /** A short label for the table and JSON. */
  public String label() {
    return switch (this) {
      case NETWORK_NAMESPACE -> "netns";
      case HOST -> "host";
      default -> "kernel";
    };
  }
}
