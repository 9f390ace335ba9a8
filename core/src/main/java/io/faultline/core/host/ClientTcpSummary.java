package io.faultline.core.host;

import io.faultline.core.metrics.MeterDoc;
import io.faultline.core.net.TcpInfo;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The TCP facts of the connections a process accepted, summarised per listener port and per client,
 * with bounded cardinality: per port the clients' RTT (median, max) and the smallest and median
 * window they advertise, and counters of the segments the process retransmitted to them and of the
 * time its sends waited for their receive window; per client the {@code top} with the most
 * retransmits, the most time limited by their window and the longest RTT, the rest summed (or for
 * the RTT, their longest) under {@value #OTHER}. Fed one sweep at a time by {@link
 * AcceptedConnections}: {@link #add} for each connection, then {@link #publish}.
 *
 * <p>The counters add what grew between two sweeps on the connections seen at both, and the whole
 * of a connection first seen after the first sweep (it was accepted since); the first sweep is the
 * baseline. What a connection adds between its last sweep and its close is not seen: the socket is
 * gone. One thread sweeps; the meters are read from any.
 */
final class ClientTcpSummary {

  /** The {@code client} tag of the clients beyond the top. */
  static final String OTHER = "other";

  /** One connection's counters at the last sweep. */
  private record Seen(long retrans, long rwndLimitedMicros) {}

  /** A connection: its listener port and the client's address and port. */
  private record Key(int port, InetSocketAddress remote) {}

  /** One client's connections on one port in one sweep. */
  private static final class ClientTally {
    long retrans;
    long rwndLimitedMicros;
    long maxRttMicros = -1;
  }

  /** One port in one sweep. */
  private static final class PortTally {
    final List<Long> rtts = new ArrayList<>();
    final List<Long> windows = new ArrayList<>();
    long retransGrown;
    long rwndGrownMicros;
    final Map<String, ClientTally> clients = new HashMap<>();
  }

  /** What the meters of one port read. */
  private static final class PortFacts {
    volatile double rttMedianSeconds = Double.NaN;
    volatile double rttMaxSeconds = Double.NaN;
    volatile double windowMin = Double.NaN;
    volatile double windowMedian = Double.NaN;
    volatile long retransmits;
    volatile long rwndLimitedMicros;
    final List<Meter> meters = new ArrayList<>();
  }

  private final int top;
  private Map<Key, Seen> seen = new HashMap<>();
  private Map<Key, Seen> current = new HashMap<>();
  private boolean baselined;
  private Map<Integer, PortTally> sweep = new TreeMap<>();
  private final Map<Integer, PortFacts> ports = new ConcurrentHashMap<>();
  private volatile MeterRegistry registry;
  private MultiGauge clientRetransmits;
  private MultiGauge clientRwndLimited;
  private MultiGauge clientRtt;

  /**
   * @param top how many clients each per-client gauge names, per port
   */
  ClientTcpSummary(int top) {
    this.top = top;
  }

  synchronized void bindTo(MeterRegistry r) {
    registry = r;
    clientRetransmits = multi(HostTcpMeters.ACCEPTED_CLIENT_RETRANSMITS, r);
    clientRwndLimited = multi(HostTcpMeters.ACCEPTED_CLIENT_RWND_LIMITED, r);
    clientRtt = multi(HostTcpMeters.ACCEPTED_CLIENT_RTT, r);
    ports.forEach(this::register);
  }

  private static MultiGauge multi(MeterDoc doc, MeterRegistry r) {
    return MultiGauge.builder(doc.name())
        .description(doc.description())
        .baseUnit(doc.baseUnit())
        .register(r);
  }

  /** Counts one connection of this sweep on listener {@code port} from {@code client}. */
  void add(int port, InetSocketAddress remote, String client, TcpInfo info) {
    PortTally t = sweep.computeIfAbsent(port, p -> new PortTally());
    long rwnd = info.rwndLimitedMicros().orElse(0);
    Key key = new Key(port, remote);
    Seen before = seen.get(key);
    Seen now = new Seen(info.totalRetrans(), rwnd);
    if (before != null
        && now.retrans >= before.retrans
        && now.rwndLimitedMicros >= before.rwndLimitedMicros) {
      t.retransGrown += now.retrans - before.retrans;
      t.rwndGrownMicros += now.rwndLimitedMicros - before.rwndLimitedMicros;
    } else if (baselined) {
      // New since the last sweep (or the address reused by a new connection): all of it is new.
      t.retransGrown += now.retrans;
      t.rwndGrownMicros += now.rwndLimitedMicros;
    }
    current.put(key, now);
    t.rtts.add(info.rttMicros());
    info.sndWnd().ifPresent(t.windows::add);
    ClientTally c = t.clients.computeIfAbsent(client, k -> new ClientTally());
    c.retrans += info.totalRetrans();
    c.rwndLimitedMicros += rwnd;
    c.maxRttMicros = Math.max(c.maxRttMicros, info.rttMicros());
  }

  /**
   * Ends the sweep: the meters of {@code swept} (the listener ports read, with or without
   * connections) take its figures, those of other ports are removed, and connections not seen in it
   * are forgotten.
   */
  void publish(Set<Integer> swept) {
    Map<Integer, PortTally> tallies = sweep;
    sweep = new TreeMap<>();
    // Only this sweep's connections are remembered: the closed ones are forgotten.
    seen = current;
    current = new HashMap<>();
    baselined = true;
    List<MultiGauge.Row<?>> retransRows = new ArrayList<>();
    List<MultiGauge.Row<?>> rwndRows = new ArrayList<>();
    List<MultiGauge.Row<?>> rttRows = new ArrayList<>();
    for (int port : swept) {
      PortTally t = tallies.getOrDefault(port, new PortTally());
      PortFacts f = ports.computeIfAbsent(port, p -> new PortFacts());
      register(port, f);
      f.rttMedianSeconds = median(t.rtts) / 1e6;
      f.rttMaxSeconds = max(t.rtts) / 1e6;
      f.windowMin = min(t.windows);
      f.windowMedian = median(t.windows);
      f.retransmits += t.retransGrown;
      f.rwndLimitedMicros += t.rwndGrownMicros;
      String p = Integer.toString(port);
      rows(p, t.clients, c -> (double) c.retrans, false, retransRows);
      rows(p, t.clients, c -> c.rwndLimitedMicros / 1e6, false, rwndRows);
      rows(p, t.clients, c -> c.maxRttMicros / 1e6, true, rttRows);
    }
    for (Integer port : List.copyOf(ports.keySet())) {
      if (!swept.contains(port)) {
        remove(port);
      }
    }
    synchronized (this) {
      if (clientRetransmits != null) {
        clientRetransmits.register(retransRows, true);
        clientRwndLimited.register(rwndRows, true);
        clientRtt.register(rttRows, true);
      }
    }
  }

  /**
   * The top {@code top} clients of a port by {@code value} (those above zero; by RTT, all with a
   * measured one), and {@value #OTHER}: the others summed, or for the RTT ({@code maxOfRest}) the
   * longest of theirs.
   */
  private void rows(
      String port,
      Map<String, ClientTally> clients,
      java.util.function.ToDoubleFunction<ClientTally> value,
      boolean maxOfRest,
      List<MultiGauge.Row<?>> out) {
    List<Map.Entry<String, Double>> ranked = new ArrayList<>();
    for (Map.Entry<String, ClientTally> e : clients.entrySet()) {
      ranked.add(Map.entry(e.getKey(), value.applyAsDouble(e.getValue())));
    }
    ranked.sort(
        Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()));
    double rest = 0;
    int named = 0;
    for (Map.Entry<String, Double> e : ranked) {
      double v = e.getValue();
      if (named < top && v > 0 && !OTHER.equals(e.getKey())) {
        out.add(MultiGauge.Row.of(Tags.of("port", port, "client", e.getKey()), v));
        named++;
      } else if (v > 0) {
        rest = maxOfRest ? Math.max(rest, v) : rest + v;
      }
    }
    out.add(MultiGauge.Row.of(Tags.of("port", port, "client", OTHER), rest));
  }

  private static double median(List<Long> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  private static double max(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).max().stream()
        .asDoubleStream()
        .findAny()
        .orElse(Double.NaN);
  }

  private static double min(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).min().stream()
        .asDoubleStream()
        .findAny()
        .orElse(Double.NaN);
  }

  private synchronized void register(int port, PortFacts f) {
    MeterRegistry r = registry;
    if (r == null || !f.meters.isEmpty()) {
      return;
    }
    String p = Integer.toString(port);
    f.meters.add(gauge(HostTcpMeters.ACCEPTED_RTT_MEDIAN, p, f, x -> x.rttMedianSeconds, r));
    f.meters.add(gauge(HostTcpMeters.ACCEPTED_RTT_MAX, p, f, x -> x.rttMaxSeconds, r));
    f.meters.add(gauge(HostTcpMeters.ACCEPTED_CLIENT_WINDOW_MIN, p, f, x -> x.windowMin, r));
    f.meters.add(gauge(HostTcpMeters.ACCEPTED_CLIENT_WINDOW_MEDIAN, p, f, x -> x.windowMedian, r));
    f.meters.add(
        HostTcpMeters.ACCEPTED_RETRANSMITS
            .functionCounter(f, x -> x.retransmits)
            .tags(HostTcpMeters.ACCEPTED_RETRANSMITS.tags(p))
            .register(r));
    f.meters.add(
        HostTcpMeters.ACCEPTED_RWND_LIMITED
            .functionCounter(f, x -> x.rwndLimitedMicros / 1e6)
            .tags(HostTcpMeters.ACCEPTED_RWND_LIMITED.tags(p))
            .register(r));
  }

  private static Meter gauge(
      MeterDoc doc,
      String port,
      PortFacts f,
      java.util.function.ToDoubleFunction<PortFacts> value,
      MeterRegistry r) {
    return doc.gauge(f, value).tags(doc.tags(port)).strongReference(true).register(r);
  }

  private synchronized void remove(int port) {
    PortFacts f = ports.remove(port);
    MeterRegistry r = registry;
    if (f != null && r != null) {
      f.meters.forEach(r::remove);
    }
  }

  /** Removes every meter. */
  synchronized void close() {
    for (Integer port : List.copyOf(ports.keySet())) {
      remove(port);
    }
    MeterRegistry r = registry;
    if (r != null) {
      for (MultiGauge m : List.of(clientRetransmits, clientRwndLimited, clientRtt)) {
        m.register(List.of(), true);
      }
    }
  }
}
