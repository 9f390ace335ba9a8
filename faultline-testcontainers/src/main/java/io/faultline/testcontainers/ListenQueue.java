package io.faultline.testcontainers;

/**
 * The TCP counters of a broker container's network namespace that show a reconnect storm (from its
 * {@code /proc/net/netstat}): compare two readings, taken before and after the event.
 *
 * @param overflows connections the full accept queue turned away ({@code ListenOverflows})
 * @param drops SYNs dropped at a listening socket for any reason ({@code ListenDrops})
 * @param syncookiesSent SYNs answered with a cookie because the SYN queue was full or cookies are
 *     forced ({@code SyncookiesSent})
 */
public record ListenQueue(long overflows, long drops, long syncookiesSent) {

  /** What happened between {@code earlier} and this reading. */
  public ListenQueue since(ListenQueue earlier) {
    return new ListenQueue(
        overflows - earlier.overflows,
        drops - earlier.drops,
        syncookiesSent - earlier.syncookiesSent);
  }

  /** Parses {@code /proc/net/netstat}: each group is a header line and a value line. */
  static ListenQueue parse(String netstat) {
    String[] lines = netstat.split("\n");
    long overflows = 0;
    long drops = 0;
    long cookies = 0;
    for (int i = 0; i + 1 < lines.length; i += 2) {
      String[] names = lines[i].trim().split("\\s+");
      String[] values = lines[i + 1].trim().split("\\s+");
      if (!names[0].equals("TcpExt:") || !values[0].equals("TcpExt:")) {
        continue;
      }
      for (int k = 1; k < names.length && k < values.length; k++) {
        switch (names[k]) {
          case "ListenOverflows" -> overflows = Long.parseLong(values[k]);
          case "ListenDrops" -> drops = Long.parseLong(values[k]);
          case "SyncookiesSent" -> cookies = Long.parseLong(values[k]);
          default -> {}
        }
      }
    }
    return new ListenQueue(overflows, drops, cookies);
  }
}
