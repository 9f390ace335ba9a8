package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.net.ListenQueue;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfoReader;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * The accept queues of this process's own listeners, read from each listening socket's TCP_INFO at
 * every {@link #sample()}: a depth and a limit gauge per port ({@code
 * faultline.host.tcp.listener.queue}), and {@code LISTENER_QUEUE_FULL} for each listener whose
 * queue is full, cleared when it drains. A Kafka broker's listeners, an HTTP server's: whatever
 * this process accepts connections on, the agent's own endpoint aside.
 *
 * <p>{@link #sample()} runs on one thread at a time (the agent's scheduler); the gauges are read
 * from any.
 */
public final class ListenerQueues implements MeterBinder, AutoCloseable {

  /** Listeners of one process followed at most; the rest are left out (a bound on series). */
  public static final int MAX_LISTENERS = 32;

  private static final String SOURCE = "host.listener-queues";

  /** Samples between two listings of this process's listeners. */
  private static final int RELIST_EVERY = 12;

  private final SocketFds sockets;
  private final Supplier<TcpInfoReader> reader;
  private final IntPredicate ignored;
  private final Findings findings;
  private final Map<Integer, Listener> listeners = new ConcurrentHashMap<>();
  // Port to descriptor, as last listed; read and written by the sampling thread only.
  private Map<Integer, Integer> byPort;
  private int samplesSinceListing;
  private long lastOverflows = -1;
  private final ProcFs proc = ProcFs.system();
  private volatile MeterRegistry registry;

  /** One listener's latest queue and its gauges. */
  private static final class Listener {
    volatile long depth;
    volatile long limit;
    final List<Meter> meters = new ArrayList<>();
  }

  /**
   * @param sockets this process's sockets
   * @param reader reads the listening sockets' TCP_INFO; asked for only once there is a socket to
   *     read (loading it costs a process that never listens nothing)
   * @param ignored ports not to follow (the agent's endpoint)
   * @param findings where {@code LISTENER_QUEUE_FULL} goes
   */
  public ListenerQueues(
      SocketFds sockets, Supplier<TcpInfoReader> reader, IntPredicate ignored, Findings findings) {
    this.sockets = Objects.requireNonNull(sockets, "sockets");
    this.reader = Objects.requireNonNull(reader, "reader");
    this.ignored = Objects.requireNonNull(ignored, "ignored");
    this.findings = Objects.requireNonNull(findings, "findings");
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    this.registry = registry;
    listeners.forEach((port, l) -> register(port, l));
  }

  /**
   * Reads every listener's queue once; returns how many were read. Never throws: a listener that
   * cannot be read is left as it was.
   */
  public int sample() {
    // Listing the sockets reads every descriptor link and the namespace's whole TCP table (a
    // broker has thousands of both), so the listeners are listed again only every few samples,
    // or when a known one no longer reads as listening.
    if (byPort == null || samplesSinceListing >= RELIST_EVERY || !stillListening()) {
      Outcome<Map<Integer, Integer>> listening = sockets.listeningSockets();
      if (!listening.isAvailable()) {
        return 0;
      }
      byPort = listening.value().orElseThrow();
      samplesSinceListing = 0;
    }
    samplesSinceListing++;
    List<Finding> full = new ArrayList<>();
    // Parsing the namespace's counters is most of a sample's cost: skipped in the many processes
    // that listen only on the agent's endpoint, which is not followed.
    long overflowsSince = followsAny() ? overflowsSinceLastSample() : forgetOverflows();
    int read = 0;
    for (Map.Entry<Integer, Integer> e : byPort.entrySet()) {
      int port = e.getKey();
      if (ignored.test(port)
          || (!listeners.containsKey(port) && listeners.size() >= MAX_LISTENERS)) {
        continue;
      }
      Outcome<ListenQueue> queue = reader.get().listenQueue(e.getValue());
      if (!queue.isAvailable()) {
        continue;
      }
      ListenQueue q = queue.value().orElseThrow();
      read++;
      Listener l = listeners.computeIfAbsent(port, p -> newListener(p));
      l.depth = q.depth();
      l.limit = q.limit();
      if (q.full()) {
        full.add(
            Finding.of(HostFindingTypes.LISTENER_QUEUE_FULL, "port " + port)
                .message(
                    "the accept queue of port "
                        + port
                        + " holds "
                        + q.depth()
                        + " connections, its limit "
                        + q.limit()
                        + ": further handshakes are dropped")
                .evidence("port", port)
                .evidence("queue", q.depth())
                .evidence("limit", q.limit())
                .evidence("namespace_listen_overflows_since_last_sample", overflowsSince)
                .build());
      }
    }
    // A listener that closed: its gauges go, its finding clears.
    for (Integer port : List.copyOf(listeners.keySet())) {
      if (!byPort.containsKey(port)) {
        remove(port);
      }
    }
    findings.replaceAll(SOURCE, full);
    return read;
  }

  /**
   * The network namespace's {@code ListenOverflows} since the previous sample (-1 when unknown):
   * the host's counter names no listener, so a full queue's finding carries it as evidence.
   */
  private long overflowsSinceLastSample() {
    java.util.OptionalLong now = NetCounters.read(proc).get("TcpExt.ListenOverflows");
    if (now.isEmpty()) {
      return -1;
    }
    long before = lastOverflows;
    lastOverflows = now.getAsLong();
    return before < 0 ? -1 : Math.max(0, now.getAsLong() - before);
  }

  private boolean followsAny() {
    for (Integer port : byPort.keySet()) {
      if (!ignored.test(port)) {
        return true;
      }
    }
    return false;
  }

  /** No listener to follow: the next reading of the counters starts a new count. */
  private long forgetOverflows() {
    lastOverflows = -1;
    return -1;
  }

  private boolean stillListening() {
    for (Map.Entry<Integer, Integer> e : byPort.entrySet()) {
      if (!ignored.test(e.getKey()) && !reader.get().listenQueue(e.getValue()).isAvailable()) {
        return false;
      }
    }
    return true;
  }

  /** The latest queue of {@code port}'s listener, if it is followed. */
  public Optional<ListenQueue> latest(int port) {
    Listener l = listeners.get(port);
    return l == null ? Optional.empty() : Optional.of(new ListenQueue(l.depth, l.limit));
  }

  private Listener newListener(int port) {
    Listener l = new Listener();
    register(port, l);
    return l;
  }

  private synchronized void register(int port, Listener l) {
    MeterRegistry r = registry;
    if (r == null || !l.meters.isEmpty()) {
      return;
    }
    String p = Integer.toString(port);
    l.meters.add(
        HostTcpMeters.LISTENER_QUEUE
            .gauge(l, x -> x.depth)
            .tags(HostTcpMeters.LISTENER_QUEUE.tags(p))
            .strongReference(true)
            .register(r));
    l.meters.add(
        HostTcpMeters.LISTENER_QUEUE_LIMIT
            .gauge(l, x -> x.limit)
            .tags(HostTcpMeters.LISTENER_QUEUE_LIMIT.tags(p))
            .strongReference(true)
            .register(r));
  }

  private synchronized void remove(int port) {
    Listener l = listeners.remove(port);
    MeterRegistry r = registry;
    if (l != null && r != null) {
      l.meters.forEach(r::remove);
    }
  }

  /** Removes the gauges and clears the findings. */
  @Override
  public void close() {
    for (Integer port : List.copyOf(listeners.keySet())) {
      remove(port);
    }
    findings.replaceAll(SOURCE, List.of());
  }
}
