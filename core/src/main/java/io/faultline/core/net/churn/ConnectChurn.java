package io.faultline.core.net.churn;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the new outbound TCP connections this JVM opens, per destination ({@code host:port}). The
 * agent calls {@link #connected} from every {@code Socket}/{@code SocketChannel} connect, so it is
 * a map lookup and an increment; the first {@code maxDestinations} destinations get a counter each
 * and the rest share {@link #OTHER}, keeping meter cardinality bounded.
 */
public final class ConnectChurn {

  /** The destination name under which connects beyond the cap are counted. */
  public static final String OTHER = "other";

  private final int maxDestinations;
  private final ConcurrentHashMap<SocketAddress, Destination> byAddress = new ConcurrentHashMap<>();
  private final Destination other = new Destination(OTHER);

  /** A tracker keeping at most {@code maxDestinations} destinations apart (at least 1). */
  public ConnectChurn(int maxDestinations) {
    this.maxDestinations = Math.max(1, maxDestinations);
  }

  /** Records one new connection to {@code remote}; ignores anything that is not an IP address. */
  public void connected(SocketAddress remote) {
    if (!(remote instanceof InetSocketAddress)) {
      return;
    }
    Destination destination = byAddress.get(remote);
    if (destination == null) {
      destination = admit((InetSocketAddress) remote);
    }
    destination.connects.increment();
  }

  private Destination admit(InetSocketAddress remote) {
    if (byAddress.size() >= maxDestinations) {
      return other;
    }
    // Slightly over the cap under a race is harmless; the cap bounds growth, not an exact count.
    return byAddress.computeIfAbsent(remote, r -> new Destination(name(remote)));
  }

  /** Connects so far per destination name, {@link #OTHER} last when it has any. */
  public Map<String, Long> totals() {
    Map<String, Long> totals = new LinkedHashMap<>();
    byAddress.values().stream()
        .sorted((a, b) -> a.name.compareTo(b.name))
        .forEach(d -> totals.merge(d.name, d.connects.sum(), Long::sum));
    long others = other.connects.sum();
    if (others > 0) {
      totals.put(OTHER, others);
    }
    return totals;
  }

  /** Connects so far to the destination of this name (as in {@link #totals()}), 0 if unknown. */
  public long total(String name) {
    if (OTHER.equals(name)) {
      return other.connects.sum();
    }
    long sum = 0;
    for (Destination d : byAddress.values()) {
      if (d.name.equals(name)) {
        sum += d.connects.sum();
      }
    }
    return sum;
  }

  /** How many destinations are counted apart (not counting {@link #OTHER}). */
  public int destinations() {
    return byAddress.size();
  }

  /** {@code host:port} with the host as given (no DNS lookup), IPv4-mapped IPv6 shown as IPv4. */
  static String name(InetSocketAddress remote) {
    String host = remote.getHostString();
    if (host.startsWith("::ffff:") && host.indexOf('.') > 0) {
      host = host.substring("::ffff:".length());
    }
    return host.indexOf(':') >= 0
        ? "[" + host + "]:" + remote.getPort()
        : host + ":" + remote.getPort();
  }

  private static final class Destination {
    final String name;
    final LongAdder connects = new LongAdder();

    Destination(String name) {
      this.name = name;
    }
  }
}
