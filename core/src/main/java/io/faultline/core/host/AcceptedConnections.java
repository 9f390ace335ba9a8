package io.faultline.core.host;

import io.faultline.core.Loggers;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoDump;
import io.faultline.core.net.TcpInfoReader;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * The connections this process accepted on its listeners, seen from its side: at each {@link
 * #sweep()} every accepted socket's TCP_INFO is read (in one netlink {@code sock_diag} dump where
 * permitted, see {@link TcpInfoDump}; else one {@code getsockopt} each), and the ones without
 * window scaling are counted per listener and per client (its address, and its name where {@link
 * ClientNames} knows it). A listener with any raises {@code CLIENTS_WITHOUT_WINDOW_SCALING}, naming
 * the clients with the most (at most {@value #TOP_CLIENTS}, the rest counted), since when, and the
 * throughput a 64 KiB window allows at their round-trip time; it clears when none is left. On a
 * Kafka broker these are its clients' connections. Their RTT, windows, retransmits and the time the
 * sends waited for the clients' windows are summarised per listener and per client by {@link
 * ClientTcpSummary}.
 *
 * <p>{@link #sweep()} runs on one thread at a time; the gauges are read from any.
 */
public final class AcceptedConnections implements MeterBinder, AutoCloseable {

  /** Client addresses named in a finding; the others are counted. */
  public static final int TOP_CLIENTS = 5;

  /** The most a window without scaling holds. */
  static final long UNSCALED_WINDOW = 65_535;

  private static final String SOURCE = "host.accepted-connections";

  private final SocketFds sockets;
  private final Supplier<TcpInfoReader> reader;
  private final IntPredicate ignored;
  private final Findings findings;
  private final ClientNames names;
  private final Clock clock;
  private final Map<Integer, PortGauges> gauges = new ConcurrentHashMap<>();
  private final Map<Integer, Instant> unscaledSince = new HashMap<>();
  private final AtomicLong fallbacks = new AtomicLong();
  private final AtomicLong bulkSweeps = new AtomicLong();
  private final AtomicBoolean fallbackLogged = new AtomicBoolean();
  private final ClientTcpSummary summary = new ClientTcpSummary(TOP_CLIENTS);

  /** Listener inode to whether it is this process's: the sweep thread's alone. */
  private final Map<Long, Boolean> listenerIsOwn = new HashMap<>();

  private boolean ownListenerSeen;
  private volatile MeterRegistry registry;
  private volatile Meter fallbackCounter;

  /**
   * What one sweep found.
   *
   * @param listeners this process's listeners swept
   * @param connections the connections read
   * @param withoutScaling those without window scaling
   * @param nanos how long the sweep took
   * @param inOnePass whether one {@code sock_diag} dump read them (else one TCP_INFO each)
   */
  public record Sweep(
      int listeners, int connections, int withoutScaling, long nanos, boolean inOnePass) {}

  private static final class PortGauges {
    volatile int accepted;
    volatile int withoutScaling;
    final List<Meter> meters = new ArrayList<>();
  }

  /** The connections of one listener in one sweep. */
  private static final class PortTally {
    int accepted;
    final List<Long> unscaledRtts = new ArrayList<>();
    final Map<String, Integer> unscaledByClient = new HashMap<>();
  }

  /**
   * @param sockets this process's sockets
   * @param reader reads the connections' TCP_INFO, in one dump or one each; asked for only once
   *     this process listens on a port not {@code ignored}
   * @param ignored listener ports to leave out (the agent's endpoint)
   * @param findings where the finding goes
   * @param clock for "since when"
   */
  public AcceptedConnections(
      SocketFds sockets,
      Supplier<TcpInfoReader> reader,
      IntPredicate ignored,
      Findings findings,
      Clock clock) {
    this(sockets, reader, ignored, findings, ClientNames.NONE, clock);
  }

  /**
   * The same, naming clients by {@code names} where it knows them (with their address).
   *
   * @param names what the process knows of its clients (on a Kafka broker, their client ids)
   */
  public AcceptedConnections(
      SocketFds sockets,
      Supplier<TcpInfoReader> reader,
      IntPredicate ignored,
      Findings findings,
      ClientNames names,
      Clock clock) {
    this.sockets = Objects.requireNonNull(sockets, "sockets");
    this.reader = Objects.requireNonNull(reader, "reader");
    this.ignored = Objects.requireNonNull(ignored, "ignored");
    this.findings = Objects.requireNonNull(findings, "findings");
    this.names = Objects.requireNonNull(names, "names");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    fallbackCounter =
        HostTcpMeters.ACCEPTED_FALLBACK_SWEEPS
            .functionCounter(fallbacks, AtomicLong::doubleValue)
            .register(registry);
    gauges.forEach(this::register);
    summary.bindTo(registry);
  }

  /**
   * Reads every accepted connection once: in one {@code sock_diag} dump where the reader has one
   * and netlink is permitted, else one TCP_INFO per connection (a fallback, counted). Never throws:
   * what cannot be read is left out.
   */
  public Sweep sweep() {
    long started = System.nanoTime();
    Sweep bulk = inOnePass(started);
    return bulk != null ? bulk : socketBySocket(started);
  }

  /**
   * The listeners and their connections from two dumps. A dump covers the network namespace, so
   * this process's own are told apart so: a listener by its inode, one of the {@code
   * socket:[inode]} links of {@code /proc/self/fd} (the answer kept per listener inode, so that
   * walk, which costs more than the dump at a broker's descriptor count, runs only when a listener
   * is new); a connection by the listener's port, which the kernel filters on. Only where another
   * process listens on the same port too (SO_REUSEPORT, another address) are that port's
   * connections kept by inode, which walks the descriptors again.
   *
   * @return null when the dump cannot be read (the fallback is counted)
   */
  private Sweep inOnePass(long started) {
    if (!ownListenerSeen) {
      // The reader is asked for only once this process listens on a port of its own: loading its
      // dump's route took a client-only process (most of a fleet) some 50 ms of CPU for nothing.
      // Until then the listeners are listed from /proc, cheap where there are few sockets.
      // Where they cannot be listed, the dump tells.
      Outcome<Set<Integer>> listening = sockets.listeningPorts();
      if (listening.isAvailable()
          && listening.value().orElseThrow().stream().allMatch(ignored::test)) {
        return new Sweep(0, 0, 0, System.nanoTime() - started, false);
      }
      ownListenerSeen = true;
    }
    Map<Long, Integer> own = null;
    TcpInfoDump dump = reader.get().dump();
    Outcome<List<TcpInfoDump.Socket>> listening = dump.listening();
    if (!listening.isAvailable()) {
      return fellBack(listening.reason().orElseThrow());
    }
    List<TcpInfoDump.Socket> listeners = listening.value().orElseThrow();
    Set<Long> current = new HashSet<>();
    for (TcpInfoDump.Socket l : listeners) {
      current.add(l.inode());
    }
    listenerIsOwn.keySet().retainAll(current);
    if (!listenerIsOwn.keySet().containsAll(current)) {
      // Walked after the dump: a listener of ours in it has its descriptor by now.
      own = walk();
      if (own == null) {
        return new Sweep(0, 0, 0, System.nanoTime() - started, false);
      }
      for (long inode : current) {
        listenerIsOwn.put(inode, own.containsKey(inode));
      }
    }
    Set<Integer> ports = new HashSet<>();
    Set<Integer> othersPorts = new HashSet<>();
    for (TcpInfoDump.Socket l : listeners) {
      int port = l.local().getPort();
      if (!listenerIsOwn.get(l.inode())) {
        othersPorts.add(port);
      } else if (!ignored.test(port)) {
        ports.add(port);
      }
    }
    Set<Integer> shared = new HashSet<>(ports);
    shared.retainAll(othersPorts);
    Outcome<List<TcpInfoDump.Socket>> established = dump.established(ports);
    if (!established.isAvailable()) {
      return fellBack(established.reason().orElseThrow());
    }
    if (!shared.isEmpty()) {
      own = walk(); // after this dump, so that every connection of ours in it is in the walk
      if (own == null) {
        return new Sweep(0, 0, 0, System.nanoTime() - started, false);
      }
    }
    Map<Integer, PortTally> tallies = new TreeMap<>();
    ports.forEach(p -> tallies.put(p, new PortTally()));
    int[] counts = new int[2];
    Set<InetSocketAddress> open = new HashSet<>();
    for (TcpInfoDump.Socket c : established.value().orElseThrow()) {
      int port = c.local().getPort();
      PortTally t = tallies.get(port);
      if (t == null
          || c.info().isEmpty()
          || (shared.contains(port) && !own.containsKey(c.inode()))) {
        continue;
      }
      open.add(c.remote());
      tally(t, port, c.remote(), c.info().get(), counts);
    }
    names.retainOnly(open);
    publish(tallies);
    bulkSweeps.incrementAndGet();
    return new Sweep(ports.size(), counts[0], counts[1], System.nanoTime() - started, true);
  }

  /** This process's sockets, inode to descriptor; null when {@code /proc/self/fd} is unreadable. */
  private Map<Long, Integer> walk() {
    return sockets.descriptorsByInode().value().orElse(null);
  }

  private Sweep fellBack(String reason) {
    fallbacks.incrementAndGet();
    if (fallbackLogged.compareAndSet(false, true)) {
      Loggers.get(AcceptedConnections.class.getName())
          .log(
              System.Logger.Level.INFO,
              "Faultline: accepted connections are read one TCP_INFO each, not in one sock_diag"
                  + " dump: "
                  + reason);
    }
    return null;
  }

  /** This process's listeners and connections from {@code /proc}, then one TCP_INFO each. */
  private Sweep socketBySocket(long started) {
    Outcome<Set<Integer>> listening = sockets.listeningPorts();
    if (!listening.isAvailable()) {
      return new Sweep(0, 0, 0, System.nanoTime() - started, false);
    }
    Set<Integer> ports = new HashSet<>();
    for (int port : listening.value().orElseThrow()) {
      if (!ignored.test(port)) {
        ports.add(port);
      }
    }
    Outcome<List<SocketFds.Accepted>> accepted = sockets.acceptedOn(ports);
    if (!accepted.isAvailable()) {
      return new Sweep(ports.size(), 0, 0, System.nanoTime() - started, false);
    }
    Map<Integer, PortTally> tallies = new TreeMap<>();
    ports.forEach(p -> tallies.put(p, new PortTally()));
    int[] counts = new int[2];
    Set<InetSocketAddress> open = new HashSet<>();
    for (SocketFds.Accepted a : accepted.value().orElseThrow()) {
      open.add(a.remote());
      Outcome<TcpInfo> info = reader.get().read(a.fd());
      if (!info.isAvailable()) {
        continue; // closed since the listing
      }
      int port = a.local().getPort();
      tally(tallies.get(port), port, a.remote(), info.value().orElseThrow(), counts);
    }
    names.retainOnly(open);
    publish(tallies);
    return new Sweep(ports.size(), counts[0], counts[1], System.nanoTime() - started, false);
  }

  /** Counts one connection; {@code counts} holds the sweep's connections and unscaled ones. */
  private void tally(PortTally t, int port, InetSocketAddress client, TcpInfo i, int[] counts) {
    String name = names.nameOf(client);
    summary.add(port, client, name != null ? name : client.getAddress().getHostAddress(), i);
    t.accepted++;
    counts[0]++;
    if (!i.windowScalingNegotiated()) {
      counts[1]++;
      t.unscaledRtts.add(i.rttMicros());
      t.unscaledByClient.merge(clientOf(client), 1, Integer::sum);
    }
  }

  /** Sweeps that fell back to one TCP_INFO per connection because the dump could not be read. */
  public long fallbacks() {
    return fallbacks.get();
  }

  /** Sweeps read in one {@code sock_diag} dump. */
  public long bulkSweeps() {
    return bulkSweeps.get();
  }

  /** A client as the finding names it: its name where known, and its address. */
  private String clientOf(InetSocketAddress remote) {
    String address = remote.getAddress().getHostAddress();
    String name = names.nameOf(remote);
    return name == null ? address : name + " at " + address;
  }

  private void publish(Map<Integer, PortTally> tallies) {
    Instant now = clock.instant();
    List<Finding> raised = new ArrayList<>();
    for (Map.Entry<Integer, PortTally> e : tallies.entrySet()) {
      int port = e.getKey();
      PortTally t = e.getValue();
      PortGauges g = gauges.computeIfAbsent(port, p -> new PortGauges());
      register(port, g);
      g.accepted = t.accepted;
      g.withoutScaling = t.unscaledRtts.size();
      if (t.unscaledRtts.isEmpty()) {
        unscaledSince.remove(port);
        continue;
      }
      Instant since = unscaledSince.computeIfAbsent(port, p -> now.truncatedTo(ChronoUnit.SECONDS));
      raised.add(finding(port, t, since));
    }
    for (Integer port : List.copyOf(gauges.keySet())) {
      if (!tallies.containsKey(port)) {
        remove(port);
        unscaledSince.remove(port);
      }
    }
    summary.publish(tallies.keySet());
    findings.replaceAll(SOURCE, raised);
  }

  private static Finding finding(int port, PortTally t, Instant since) {
    List<Long> rtts = new ArrayList<>(t.unscaledRtts);
    rtts.sort(null);
    long medianRttMicros = Math.max(1, rtts.get(rtts.size() / 2));
    long ceiling = UNSCALED_WINDOW * 1_000_000L / medianRttMicros;
    List<Map.Entry<String, Integer>> clients = new ArrayList<>(t.unscaledByClient.entrySet());
    clients.sort(
        Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
            .thenComparing(Map.Entry.comparingByKey()));
    StringBuilder named = new StringBuilder();
    int shown = Math.min(TOP_CLIENTS, clients.size());
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        named.append(", ");
      }
      named
          .append(clients.get(i).getKey())
          .append(" (")
          .append(clients.get(i).getValue())
          .append(')');
    }
    if (clients.size() > shown) {
      named.append(" and ").append(clients.size() - shown).append(" more clients");
    }
    int unscaled = t.unscaledRtts.size();
    return Finding.of(HostFindingTypes.CLIENTS_WITHOUT_WINDOW_SCALING, "port " + port)
        .message(
            unscaled
                + " of "
                + t.accepted
                + " client connections accepted on port "
                + port
                + " have no TCP window scaling (since "
                + since
                + "): each carries at most 65,535 bytes per round trip, "
                + ceiling
                + " bytes/s at their median RTT of "
                + medianRttMicros
                + " µs; from "
                + named)
        .evidence("port", port)
        .evidence("without_scaling", unscaled)
        .evidence("accepted", t.accepted)
        .evidence("since", since.toString())
        .evidence("median_rtt_us", medianRttMicros)
        .evidence("ceiling_bytes_per_second", ceiling)
        .evidence("clients", named.toString())
        .build();
  }

  private synchronized void register(int port, PortGauges g) {
    MeterRegistry r = registry;
    if (r == null || !g.meters.isEmpty()) {
      return;
    }
    String p = Integer.toString(port);
    g.meters.add(
        HostTcpMeters.ACCEPTED
            .gauge(g, x -> x.accepted)
            .tags(HostTcpMeters.ACCEPTED.tags(p))
            .strongReference(true)
            .register(r));
    g.meters.add(
        HostTcpMeters.ACCEPTED_WITHOUT_WSCALE
            .gauge(g, x -> x.withoutScaling)
            .tags(HostTcpMeters.ACCEPTED_WITHOUT_WSCALE.tags(p))
            .strongReference(true)
            .register(r));
  }

  private synchronized void remove(int port) {
    PortGauges g = gauges.remove(port);
    MeterRegistry r = registry;
    if (g != null && r != null) {
      g.meters.forEach(r::remove);
    }
  }

  /** Removes the meters and clears the finding. */
  @Override
  public void close() {
    for (Integer port : List.copyOf(gauges.keySet())) {
      remove(port);
    }
    MeterRegistry r = registry;
    Meter counter = fallbackCounter;
    if (r != null && counter != null) {
      r.remove(counter);
    }
    summary.close();
    findings.replaceAll(SOURCE, List.of());
  }
}
