package io.faultline.agent.kafka;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.connection.BrokerConnection;
import io.faultline.kafka.phase.ClientPhases;
import io.faultline.kafka.phase.ConnectionPhaseTracker;
import io.faultline.kafka.reconnect.MeteredGateListener;
import io.faultline.kafka.reconnect.ReconnectGate;
import java.lang.ref.WeakReference;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Faultline's state for one kafka-clients {@code NetworkClient} (one producer, consumer or admin
 * client): its request phases, its reconnect gate, its sockets and the connections it registered
 * with the {@code ConnectionMonitor}. Holds the client's objects only weakly, so a client the
 * application drops is collected.
 *
 * <p>Threading: the event methods run on the thread that drives the {@code NetworkClient} (Kafka
 * confines it to one thread at a time), as kafka-guard's phases and gate require; {@link
 * #requestRecycle} comes from the sampler thread and is carried out by that thread at its next
 * {@code poll}.
 */
public final class KafkaClient {

  private final KafkaClients owner;
  private final long serial;
  private final WeakReference<Object> networkClient;
  private final WeakReference<Object> selector;
  private final WeakReference<Object> connectionStates;
  private final String clientId;
  private final ClientType type;
  private final ClientPhases phases;
  private final ReconnectGate gate;
  private final MeteredGateListener gateListener;
  private final Map<String, DeliverySampler.Probe> probes = new HashMap<>();

  /** {@link #probes}' values, for the loop of each {@code poll}, which allocates nothing. */
  private DeliverySampler.Probe[] probeList = new DeliverySampler.Probe[0];

  // The node of the last request event, with its tracker and probe: a busy client's events come
  // in runs about one node, and the map lookups were much of what the advice cost its I/O thread.
  // Client thread only; a probe change forgets it.
  private String lastNode;
  private ConnectionPhaseTracker lastTracker;
  private DeliverySampler.Probe lastProbe;
  private final Map<String, Long> deniedUntil = new HashMap<>();
  private final Map<String, String> connectionKeys = new ConcurrentHashMap<>();

  /** Nodes whose open connection the advice saw opened (or adopted); client thread only. */
  private final java.util.Set<String> openedChannels = new java.util.HashSet<>();

  /**
   * Descriptors of connections whose delivery is sampled once the client's wire format is known
   * (their first bytes were not counted: a TLS handshake, a SASL exchange, or what a connection
   * carried before it was adopted); client thread only.
   */
  private final Map<String, Integer> awaitingTransport = new HashMap<>();

  /**
   * What this client's transport layer writes, known at its first write: one channel builder makes
   * all of a client's connections, so one write tells. Client thread only.
   */
  private WireFormat wireFormat = WireFormat.UNKNOWN;

  private final Queue<String> recycleRequests = new ConcurrentLinkedQueue<>();
  private volatile boolean closed;

  KafkaClient(
      KafkaClients owner,
      long serial,
      Object networkClient,
      Object selector,
      Object connectionStates,
      String clientId,
      ClientType type,
      ClientPhases phases,
      ReconnectGate gate,
      MeteredGateListener gateListener) {
    this.owner = owner;
    this.serial = serial;
    this.networkClient = new WeakReference<>(networkClient);
    this.selector = new WeakReference<>(selector);
    this.connectionStates = new WeakReference<>(connectionStates);
    this.clientId = clientId == null ? "" : clientId;
    this.type = type;
    this.phases = phases;
    this.gate = gate;
    this.gateListener = gateListener;
  }

  boolean owns(Object selectorOrStates) {
    return selectorOrStates != null
        && (selector.get() == selectorOrStates || connectionStates.get() == selectorOrStates);
  }

  Object selector() {
    return selector.get();
  }

  Object connectionStates() {
    return connectionStates.get();
  }

  /** The {@code NetworkClient}, while the application holds it. */
  public Object networkClient() {
    return networkClient.get();
  }

  /** The client's {@code client.id}. */
  public String clientId() {
    return clientId;
  }

  /** The client's kind. */
  public ClientType type() {
    return type;
  }

  /** This client's monitor key of {@code nodeId}: unique even when client ids repeat. */
  String connectionKey(String nodeId) {
    return clientId + "#" + serial + "/" + nodeId;
  }

  // ---- request phases (client thread) ----

  /** {@code NetworkClient.doSend}: a request was created and handed to the selector. */
  public void requestCreated(
      String node, int correlation, short apiKey, boolean expectResponse, long now) {
    if (phases != null) {
      tracker(node).requestCreated(correlation, apiKey, expectResponse, now);
    }
  }

  /**
   * {@code KafkaChannel.write()} handed {@code bytes} bytes to the socket through {@code
   * transportLayer}.
   */
  public void bytesWritten(String node, long bytes, long now, Object transportLayer) {
    if (wireFormat == WireFormat.UNKNOWN) {
      wireFormat = WireFormat.of(transportLayer);
    }
    if (phases == null) {
      return;
    }
    if (wireFormat == WireFormat.TLS_RECORDS) {
      tracker(node).plaintextWritten(now); // the records' bytes come from the flush advice
    } else {
      tracker(node).bytesWritten(bytes, now);
    }
  }

  /** {@code SslTransportLayer.flush} handed {@code bytes} bytes of TLS records to the socket. */
  public void recordBytesWritten(String node, int bytes) {
    if (phases != null) {
      tracker(node).recordBytesWritten(bytes);
    }
  }

  /** {@code Selector.write} completed a send of {@code size} bytes. */
  public void sendCompleted(String node, long size, long now) {
    if (phases == null) {
      return;
    }
    ConnectionPhaseTracker tracker = tracker(node);
    tracker.sendCompleted(size, now);
    rewatch(tracker, drainDelivery(node, tracker));
  }

  /** The first read of a response ({@code Selector.attemptRead}). */
  public void responseStarted(String node, long now) {
    if (phases == null) {
      return;
    }
    ConnectionPhaseTracker tracker = tracker(node);
    DeliverySampler.Probe probe = drainDelivery(node, tracker);
    tracker.responseStarted(now);
    rewatch(tracker, probe);
  }

  /** {@code Selector.addToCompletedReceives}: a response completed. */
  public void responseCompleted(String node, int correlation, long now) {
    if (phases == null) {
      return;
    }
    ConnectionPhaseTracker tracker = tracker(node);
    DeliverySampler.Probe probe = drainDelivery(node, tracker);
    long latency = tracker.responseCompleted(correlation, now);
    rewatch(tracker, probe);
    if (latency > owner.slowRequestNanos()) {
      owner.sampleSoon(connectionKey(node));
    }
  }

  /**
   * {@code node}'s tracker, created on first use; the node's probe is then in {@link #lastProbe}.
   * Client thread.
   */
  private ConnectionPhaseTracker tracker(String node) {
    if (node != lastNode && !node.equals(lastNode)) {
      lastTracker = phases.tracker(node);
      lastProbe = probes.get(node);
      lastNode = node;
    }
    return lastTracker;
  }

  /**
   * Hands the acknowledgements the sampler saw to {@code tracker}, {@code node}'s, which {@link
   * #tracker} just returned; client thread. Returns the node's probe, or null when it has none (or
   * its TCP_INFO turned out unreadable).
   */
  private DeliverySampler.Probe drainDelivery(String node, ConnectionPhaseTracker tracker) {
    DeliverySampler.Probe probe = lastProbe;
    if (probe == null) {
      return null;
    }
    if (probe.failed()) {
      tracker.deliveryUnobservable();
      removeProbe(node);
      return null;
    }
    if (probe.hasLooks()) {
      probe.drain(tracker::tcpSample);
    }
    return probe;
  }

  /**
   * Has the sampler read {@code probe} from {@code kafka.phases.delivery-after} past the oldest
   * unacknowledged send, or stop when none is left.
   */
  private void rewatch(ConnectionPhaseTracker tracker, DeliverySampler.Probe probe) {
    if (probe == null) {
      return;
    }
    if (!tracker.awaitingDelivery()) {
      owner.deliverySampler().stop(probe);
    } else {
      owner
          .deliverySampler()
          .watch(
              probe,
              tracker.awaitingDeliverySince() + owner.deliveryAfterNanos(),
              tracker.awaitingDeliveryEnd(),
              tracker.sentStreamOffset());
    }
  }

  /**
   * {@code Selector.poll(timeout)}: the timeout cut so that the poll ends when this client's first
   * waiting send becomes due, while the sampler sleeps at its quiet pace; {@link #afterPoll} then
   * wakes it if that send is still unanswered. A client that answers in time never wakes sooner:
   * its responses come first and clear what was due.
   */
  public long pollTimeout(long timeoutMs) {
    DeliverySampler.Probe[] list = probeList;
    if (phases == null || list.length == 0 || !owner.deliverySampler().sleepsQuietly()) {
      return timeoutMs;
    }
    long first = Long.MAX_VALUE;
    for (DeliverySampler.Probe probe : list) {
      first = Math.min(first, probe.firstLookDue());
    }
    if (first == Long.MAX_VALUE) {
      return timeoutMs;
    }
    long untilMs = (first - System.nanoTime() + 999_999) / 1_000_000;
    // At least 1 ms: a send due already is looked at when this poll returns.
    return Math.max(1, Math.min(timeoutMs, untilMs));
  }

  /** {@code Selector.poll} returned: wakes the sampler if a send became due and is unanswered. */
  public void afterPoll() {
    DeliverySampler.Probe[] list = probeList;
    if (phases == null || list.length == 0) {
      return;
    }
    long now = System.nanoTime();
    boolean due = false;
    for (DeliverySampler.Probe probe : list) {
      due |= probe.takeFirstLook(now);
    }
    if (due) {
      owner.deliverySampler().nudge();
    }
  }

  // ---- connections (client thread) ----

  /**
   * {@code Selector.buildAndAttachKafkaChannel}: {@code node}'s new connection, whose socket is
   * {@code channel}. Its descriptor is looked up once, for the request phases ({@code phases}: the
   * byte count starts over and delivery is sampled through it) and the connection monitor ({@code
   * monitor}: gauges, findings, recycling).
   *
   * @param requestBytesOnly whether every byte the client writes on this connection is a request's
   *     byte, counted from its first: a PLAINTEXT channel seen opening. Its delivery is sampled
   *     through either read ({@code tcpi_bytes_acked} matches the count). Any other connection's is
   *     decided at its first completed send, by what the client's transport layer writes: the
   *     requests' bytes as they are (SASL_PLAINTEXT) or TLS records (counted as they are flushed),
   *     sampled only through {@code SIOCOUTQ}. Bytes the count missed before its first (a
   *     handshake, the SASL exchange) are acknowledged before any request's, so the count less the
   *     unacknowledged bytes still places each request, where TCP_INFO's total would place it
   *     early. Another transport layer's: delivery merged.
   */
  public void channelOpened(
      String node,
      SocketChannel channel,
      boolean phases,
      boolean monitor,
      boolean requestBytesOnly) {
    openedChannels.add(node);
    Outcome<Integer> fd = SocketFds.ofChannel(channel);
    if (phases && this.phases != null) {
      phasesOpened(node, fd, requestBytesOnly);
    }
    if (monitor) {
      monitorOpened(node, channel, fd);
    }
  }

  /**
   * {@code Selector.close(KafkaChannel, CloseMode)}: what was in flight to {@code node} is gone
   * ({@code phases}), and the monitor stops watching the connection ({@code monitor}).
   */
  public void channelClosed(String node, boolean phases, boolean monitor) {
    openedChannels.remove(node);
    awaitingTransport.remove(node);
    if (phases) {
      stopProbe(node);
      if (this.phases != null) {
        this.phases.connectionClosed(node);
      }
    }
    if (monitor) {
      String key = connectionKeys.remove(node);
      if (key != null) {
        owner.connectionClosed(key);
      }
    }
  }

  private void phasesOpened(String node, Outcome<Integer> fd, boolean requestBytesOnly) {
    stopProbe(node);
    awaitingTransport.remove(node);
    phases.connectionClosed(node); // a new connection: the byte count starts over
    ConnectionPhaseTracker tracker = phases.tracker(node);
    if (!fd.isAvailable() || !owner.deliveryObservable()) {
      tracker.deliveryUnobservable();
    } else if (requestBytesOnly) {
      putProbe(node, new DeliverySampler.Probe(fd.value().orElseThrow(), tracker, true));
    } else {
      // No send completed on it yet, so nothing waits for the decision.
      awaitingTransport.put(node, fd.value().orElseThrow());
    }
  }

  /**
   * {@code node}'s first completed send: its connection's delivery is sampled if the transport
   * layer writes the requests' bytes as they are, else merged.
   */
  private void decideDelivery(String node) {
    Integer fd = awaitingTransport.remove(node);
    if (fd == null || phases == null) {
      return;
    }
    ConnectionPhaseTracker tracker = phases.tracker(node);
    if (wireFormat == WireFormat.REQUEST_BYTES || wireFormat == WireFormat.TLS_RECORDS) {
      putProbe(node, new DeliverySampler.Probe(fd, tracker, false));
    } else {
      tracker.deliveryUnobservable();
    }
  }

  /** Whether {@code node}'s connection has its delivery sampled. */
  boolean samplesDelivery(String node) {
    return probes.containsKey(node);
  }

  private void stopProbe(String node) {
    DeliverySampler.Probe probe = removeProbe(node);
    if (probe != null) {
      owner.deliverySampler().forget(probe);
    }
  }

  private void putProbe(String node, DeliverySampler.Probe probe) {
    probes.put(node, probe);
    probesChanged();
    owner.deliverySampler().enlist(probe);
  }

  private DeliverySampler.Probe removeProbe(String node) {
    DeliverySampler.Probe probe = probes.remove(node);
    if (probe != null) {
      probesChanged();
    }
    return probe;
  }

  private void probesChanged() {
    probeList = probes.values().toArray(new DeliverySampler.Probe[0]);
    lastNode = null;
  }

  private void monitorOpened(String node, SocketChannel channel, Outcome<Integer> fd) {
    InetSocketAddress remote = remoteOf(channel);
    String key = connectionKey(node);
    connectionKeys.put(node, key);
    owner.connectionOpened(
        key,
        this,
        node,
        new BrokerConnection(
            type,
            clientId,
            node,
            remote,
            () -> channel.isOpen() ? fd : Outcome.unavailable("the connection is closed"),
            owner.tcpInfoReader()));
  }

  private static InetSocketAddress remoteOf(SocketChannel channel) {
    try {
      SocketAddress address = channel.getRemoteAddress();
      if (address instanceof InetSocketAddress inet) {
        return inet;
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not connected yet and no address known: reported as unresolved below
    }
    return InetSocketAddress.createUnresolved("unknown", 0);
  }

  /**
   * A send completed on {@code node}'s connection, whose socket is {@code channel}: a connection
   * opened before the agent had woven the selector (a client created while the agent was still
   * starting; nothing waits for it) is adopted here, once, as if its opening had been seen, and
   * whether a connection's delivery is sampled is decided here when its opening left it open (see
   * {@link #channelOpened}).
   */
  public void sawChannel(String node, Object channel) {
    if (openedChannels.contains(node)) {
      if (!awaitingTransport.isEmpty()) {
        decideDelivery(node);
      }
      return;
    }
    if (!(channel instanceof SocketChannel socket)) {
      return;
    }
    // Opened before the weave: what it carried already was not counted (see channelOpened).
    channelOpened(node, socket, true, ConnectionsModule.SWITCH.active(), false);
    decideDelivery(node);
  }

  /** Asks the client's thread to close {@code node}'s connection at its next poll. */
  boolean requestRecycle(String node) {
    if (closed || networkClient.get() == null) {
      return false;
    }
    recycleRequests.add(node);
    return true;
  }

  /** The nodes to disconnect now (the recycle requests since the last call); client thread. */
  public List<String> takeRecycleRequests() {
    if (recycleRequests.isEmpty()) {
      return List.of();
    }
    List<String> nodes = new java.util.ArrayList<>();
    for (String n; (n = recycleRequests.poll()) != null; ) {
      nodes.add(n);
    }
    return nodes;
  }

  // ---- the reconnect gate (client thread) ----

  /**
   * {@code NetworkClient.initiateConnect}: whether to go ahead. A denied initiation is remembered,
   * so {@link #connectDelayNanos} makes Kafka report the node not connectable for that long.
   */
  public boolean admitConnect(String node, long now) {
    if (gate == null) {
      return true;
    }
    long wait = gate.admit(node, now);
    if (wait <= 0) {
      deniedUntil.remove(node);
      return true;
    }
    deniedUntil.put(node, now + wait);
    return false;
  }

  /**
   * Nanoseconds the gate still holds {@code node} back; 0 when it does not. Kafka asks at every
   * poll, and the gate seldom holds a node back: the clock is read only then.
   */
  public long connectDelayNanos(String node) {
    return deniedUntil.isEmpty() ? 0 : connectDelayNanos(node, System.nanoTime());
  }

  /** Nanoseconds the gate still holds {@code node} back at {@code now}; 0 when it does not. */
  public long connectDelayNanos(String node, long now) {
    if (deniedUntil.isEmpty()) {
      return 0;
    }
    Long until = deniedUntil.get(node);
    if (until == null) {
      return 0;
    }
    long left = until - now;
    if (left <= 0) {
      deniedUntil.remove(node);
      return 0;
    }
    return left;
  }

  /** {@code ClusterConnectionStates.ready}/{@code checkingApiVersions}: connected. */
  public void nodeConnected(String node, long now) {
    if (gate != null) {
      gate.connected(node, now);
    }
  }

  /** {@code ClusterConnectionStates.disconnected}: lost or failed. */
  public void nodeDisconnected(String node, long now) {
    if (gate != null) {
      gate.disconnected(node, now);
    }
  }

  // ---- life cycle ----

  ClientPhases phases() {
    return phases;
  }

  /** {@code NetworkClient.close()}: forget the client and remove its meters and connections. */
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (DeliverySampler.Probe probe : probes.values()) {
      owner.deliverySampler().forget(probe);
    }
    probes.clear();
    probesChanged();
    for (String key : connectionKeys.values()) {
      owner.connectionClosed(key);
    }
    connectionKeys.clear();
    owner.clientClosed(this);
    if (phases != null) {
      phases.close();
    }
    if (gateListener != null) {
      gateListener.close();
    }
  }

  boolean closed() {
    return closed;
  }

  long serial() {
    return serial;
  }
}
