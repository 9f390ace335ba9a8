package io.faultline.core.host;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ephemeral ports of one network namespace: the {@code ip_local_port_range}, how many TCP
 * sockets sit in TIME_WAIT and how many are in use ({@code /proc/net/sockstat}), and {@code
 * tcp_tw_reuse}.
 *
 * @param rangeLow first port of {@code net.ipv4.ip_local_port_range}
 * @param rangeHigh last port of the range
 * @param timeWait TCP sockets in TIME_WAIT
 * @param inUse TCP sockets in use
 * @param twReuse {@code net.ipv4.tcp_tw_reuse} (0 off, 1 on, 2 loopback only), if readable
 */
public record PortBudget(
    long rangeLow, long rangeHigh, long timeWait, long inUse, OptionalLong twReuse) {

  /** How long Linux keeps a closed connection in TIME_WAIT (TCP_TIMEWAIT_LEN, not tunable). */
  public static final long TIME_WAIT_SECONDS = 60;

  private static final Pattern TCP_LINE =
      Pattern.compile("TCP:\\s+inuse\\s+(\\d+)\\s+orphan\\s+(\\d+)\\s+tw\\s+(\\d+)");

  /** Reads the budget, or empty when the range or sockstat cannot be read under {@code proc}. */
  public static Optional<PortBudget> read(ProcFs proc) {
    Optional<long[]> range = proc.sysctlNumbers("net.ipv4.ip_local_port_range");
    Optional<String> sockstat = proc.net("sockstat");
    if (range.isEmpty() || range.get().length < 2 || sockstat.isEmpty()) {
      return Optional.empty();
    }
    Matcher m = TCP_LINE.matcher(sockstat.get());
    if (!m.find()) {
      return Optional.empty();
    }
    return Optional.of(
        new PortBudget(
            range.get()[0],
            range.get()[1],
            Long.parseLong(m.group(3)),
            Long.parseLong(m.group(1)),
            proc.sysctl("net.ipv4.tcp_tw_reuse")));
  }

  /** Ports in the range (each destination address and port can use all of them). */
  public long ports() {
    return Math.max(0, rangeHigh - rangeLow + 1);
  }

  /** True when outbound connects may take a port still in TIME_WAIT ({@code tcp_tw_reuse=1}). */
  public boolean outboundReusesTimeWait() {
    return twReuse.orElse(-1) == 1;
  }

  /** {@code tcp_tw_reuse} as text, {@code unknown} when unreadable. */
  public String twReuseText() {
    return twReuse.isPresent() ? String.valueOf(twReuse.getAsLong()) : "unknown";
  }
}
