package io.faultline.agent.kafka;

import io.faultline.agent.AgentRuntime;
import io.faultline.agent.net.AgentTcpInfo;
import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaConfigKeys;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.connection.BrokerConnection;
import io.faultline.kafka.connection.ConnectionMonitor;
import io.faultline.kafka.connection.RecycleMode;
import io.faultline.kafka.connection.Recycler;
import io.faultline.kafka.phase.ClientPhases;
import io.faultline.kafka.phase.PhaseBuckets;
import io.faultline.kafka.phase.PhaseMeters;
import io.faultline.kafka.phase.TransmitBoundDetector;
import io.faultline.kafka.reconnect.ConnectAdmission;
import io.faultline.kafka.reconnect.MeteredGateListener;
import io.faultline.kafka.reconnect.ReconnectGate;
import io.faultline.kafka.reconnect.StaggerSettings;
import java.lang.System.Logger.Level;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The Kafka clients of this JVM as the agent's advice sees them: finds (or creates) the {@link
 * KafkaClient} of a {@code NetworkClient}, {@code Selector} or {@code ClusterConnectionStates}, and
 * holds what is shared per JVM — the {@link ConnectionMonitor} with its recycler, the process-wide
 * connect admission, the delivery sampler, and the periodic {@code KAFKA_TRANSMIT_BOUND} check.
 *
 * <p>Advice calls {@link #forSelector}/{@link #forStates} on every event; the last client seen by
 * the calling thread is cached, so the usual lookup is one thread-local read and a reference
 * comparison. Clients are found by identity among the few live ones.
 */
public final class KafkaClients {

  private static final System.Logger LOG = Loggers.get(KafkaClients.class.getName());
  private static volatile KafkaClients instance;

  private static final String PLAINTEXT_CHANNEL_BUILDER =
      "org.apache.kafka.common.network.PlaintextChannelBuilder";

  private final FaultlineConfig config;
  private final Findings findings;
  private final LateRegistry meters;
  private final ScheduledExecutorService scheduler;
  private final boolean phasesOn;
  private final boolean staggerOn;
  private final long slowRequestNanos;
  private final long deliveryAfterNanos;
  private final TransmitBoundDetector transmitBound;
  private final ConnectAdmission admission;
  private final TcpInfoReader tcpInfoReader;
  private final boolean deliveryObservable;
  private final DeliverySampler deliverySampler;
  private final ConnectionMonitor monitor;
  private final List<KafkaClient> clients = new ArrayList<>();
  private final Map<String, KafkaClient> byConnectionKey = new ConcurrentHashMap<>();
  private final Map<String, BrokerConnection> connections = new ConcurrentHashMap<>();
  private final ClientTimeoutConfigs timeoutConfigs = new ClientTimeoutConfigs();
  private final AtomicLong serials = new AtomicLong();
  private final ThreadLocal<KafkaClient> lastSeen = new ThreadLocal<>();
  private final PhaseMeters phaseMeters;

  /**
   * What the clients work with, passed in so they can be built and tested without an agent.
   *
   * @param config the configuration (features, intervals, the gate's settings)
   * @param findings where findings go
   * @param meters where the phase, gate and connection meters go, once the registry exists
   * @param scheduler runs the periodic checks and the sampling of a slow request's connection
   * @param tcpInfo reads TCP_INFO of a descriptor
   * @param socketFdsAvailable whether a socket's descriptor can be found (delivery sampling needs
   *     it)
   * @param nanoClock the connection monitor's clock
   */
  record Services(
      FaultlineConfig config,
      Findings findings,
      LateRegistry meters,
      ScheduledExecutorService scheduler,
      TcpInfoReader tcpInfo,
      boolean socketFdsAvailable,
      LongSupplier nanoClock) {}

  /** Built from {@code services}; nothing runs until {@link #start}. */
  KafkaClients(Services services) {
    this.config = services.config();
    this.findings = services.findings();
    this.meters = services.meters();
    this.scheduler = services.scheduler();
    this.phasesOn = config.isFeatureEnabled(KafkaConfigKeys.PHASES_FEATURE);
    this.staggerOn = config.isFeatureEnabled(KafkaConfigKeys.STAGGER_FEATURE);
    this.slowRequestNanos = config.get(KafkaConfigKeys.PHASES_SLOW_REQUEST).toNanos();
    this.deliveryAfterNanos =
        Math.max(0, config.get(KafkaConfigKeys.PHASES_DELIVERY_AFTER).toNanos());
    this.transmitBound =
        new TransmitBoundDetector(config.get(KafkaConfigKeys.PHASES_TRANSMIT_BOUND_THRESHOLD), 3);
    this.admission =
        new ConnectAdmission(config.get(KafkaConfigKeys.STAGGER_MAX_CONNECTS_PER_SECOND));
    KafkaMeterTags tagging = KafkaMeterTags.from(config);
    this.phaseMeters =
        new PhaseMeters(
            meters, tagging, PhaseBuckets.of(config.get(KafkaConfigKeys.PHASES_BUCKETS)));
    this.tcpInfoReader = services.tcpInfo();
    this.deliveryObservable = tcpInfoReader.isSupported() && services.socketFdsAvailable();
    this.deliverySampler =
        new DeliverySampler(
            tcpInfoReader,
            config.get(KafkaConfigKeys.PHASES_DELIVERY_WAKES_PER_SECOND),
            deliveryAfterNanos);
    Recycler.Policy recyclePolicy = Recycler.Policy.from(config);
    this.monitor =
        new ConnectionMonitor(
            findings,
            recyclePolicy.mode() == RecycleMode.OFF
                ? null
                : new Recycler(recyclePolicy, this::recycle),
            meters,
            tagging,
            services.nanoClock());
  }

  /**
   * Starts the connection monitor's sampling (feature {@code kafka.tcp}) and the periodic checks.
   */
  void start() {
    Duration interval = config.get(KafkaConfigKeys.TCP_INTERVAL);
    if (config.isFeatureEnabled(KafkaConfigKeys.TCP_FEATURE)) {
      monitor.start(interval);
    }
    long millis = Math.max(1000, interval.toMillis());
    scheduler.scheduleWithFixedDelay(
        this::checkTransmitBound, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** The clients of the agent's {@code runtime}, started, with their status-page section. */
  static KafkaClients forRuntime(AgentRuntime runtime) {
    KafkaClients k =
        new KafkaClients(
            new Services(
                runtime.config(),
                runtime.findings(),
                runtime.lateMeters(),
                runtime.scheduler(),
                AgentTcpInfo.readerLoadedOnFirstRead(),
                runtime.socketFdsUnavailable().isEmpty(),
                System::nanoTime));
    k.start();
    runtime.statusPage().add(new BrokerConnectionsSection(k));
    runtime.setPhaseMeters(k.phaseMeters);
    return k;
  }

  /**
   * The agent's clients, created on first use (by the first Kafka event the advice sees); {@code
   * null} when no agent runs in this JVM.
   */
  static KafkaClients get() {
    KafkaClients k = instance;
    if (k != null) {
      return k;
    }
    synchronized (KafkaClients.class) {
      if (instance == null) {
        AgentRuntime runtime = AgentRuntime.current().orElse(null);
        if (runtime == null) {
          return null;
        }
        instance = forRuntime(runtime);
      }
      return instance;
    }
  }

  /**
   * The client of a {@code NetworkClient}, registered on first sight. Called from the {@code
   * NetworkClient} advice, which sees all of its parts.
   *
   * @return the client, or {@code null} without an agent
   */
  public static KafkaClient register(
      Object networkClient, Object selector, Object connectionStates, String clientId) {
    KafkaClients k = get();
    return k == null ? null : k.client(networkClient, selector, connectionStates, clientId);
  }

  /**
   * {@code ClientUtils.createNetworkClient} returned {@code networkClient}, configured with {@code
   * values} (the client configuration's parsed values): its timeouts cap its reconnect gate.
   */
  public static void clientConfigured(Object networkClient, Object values) {
    KafkaClients k = get();
    if (k != null) {
      k.configured(networkClient, values);
    }
  }

  /**
   * {@code Selector.buildAndAttachKafkaChannel} of {@code selector}, whose channels {@code
   * channelBuilder} builds, opened {@code node}'s {@code socket}: for the request phases and the
   * connection monitor, whichever are active.
   */
  public static void channelOpened(
      Object selector, String node, SocketChannel socket, Object channelBuilder) {
    if (!ClientLifecycleModule.SWITCH.active()) {
      return;
    }
    boolean phases = PhasesModule.SWITCH.active();
    boolean monitor = ConnectionsModule.SWITCH.active();
    KafkaClient c = phases || monitor ? forSelector(selector) : null;
    if (c != null) {
      c.channelOpened(node, socket, phases, monitor, writesRequestBytesOnly(channelBuilder));
    }
  }

  /**
   * Whether the channels {@code channelBuilder} builds carry nothing but request bytes from their
   * first: PLAINTEXT ones. A TLS channel writes handshake and record bytes, a SASL one its
   * authentication exchange first, none of them counted as requests.
   */
  static boolean writesRequestBytesOnly(Object channelBuilder) {
    return channelBuilder != null
        && channelBuilder.getClass().getName().equals(PLAINTEXT_CHANNEL_BUILDER);
  }

  /** {@code Selector.close(KafkaChannel, CloseMode)} of {@code selector} closed {@code node}'s. */
  public static void channelClosed(Object selector, String node) {
    if (!ClientLifecycleModule.SWITCH.active()) {
      return;
    }
    boolean phases = PhasesModule.SWITCH.active();
    boolean monitor = ConnectionsModule.SWITCH.active();
    KafkaClient c = phases || monitor ? forSelector(selector) : null;
    if (c != null) {
      c.channelClosed(node, phases, monitor);
    }
  }

  /** The client that owns {@code selector}, or {@code null} when it has not been registered. */
  public static KafkaClient forSelector(Object selector) {
    KafkaClients k = instance;
    return k == null ? null : k.client(null, selector, null, null);
  }

  /** The client that owns {@code connectionStates}, or {@code null}. */
  public static KafkaClient forStates(Object connectionStates) {
    KafkaClients k = instance;
    return k == null ? null : k.client(null, null, connectionStates, null);
  }

  /** Remembers a new client's timeouts for its reconnect gate (feature {@code kafka.stagger}). */
  void configured(Object networkClient, Object values) {
    if (staggerOn) {
      timeoutConfigs.remember(networkClient, values);
    }
  }

  /**
   * The client that owns {@code selector} or {@code connectionStates}; created when {@code
   * networkClient} and {@code selector} are given and none does. {@code null} when none is found.
   */
  KafkaClient client(
      Object networkClient, Object selector, Object connectionStates, String clientId) {
    Object probe = selector != null ? selector : connectionStates;
    if (probe == null) {
      return null;
    }
    KafkaClient last = lastSeen.get();
    if (last != null && last.owns(probe) && !last.closed()) {
      return last;
    }
    KafkaClient found = null;
    synchronized (clients) {
      for (int i = clients.size() - 1; i >= 0; i--) {
        KafkaClient c = clients.get(i);
        if (c.networkClient() == null) {
          clients.remove(i); // collected without close(): forget it
          continue;
        }
        if (c.owns(probe)) {
          found = c;
          break;
        }
      }
      if (found == null && networkClient != null && selector != null) {
        found = create(networkClient, selector, connectionStates, clientId);
        clients.add(found);
      }
    }
    if (found != null) {
      lastSeen.set(found);
    }
    return found;
  }

  private KafkaClient create(
      Object networkClient, Object selector, Object connectionStates, String clientId) {
    ClientType type = ClientTypeDetector.of(selector, clientId);
    ClientPhases phases =
        phasesOn
            ? new ClientPhases(phaseMeters, type, clientId, deliveryObservable, transmitBound)
            : null;
    ReconnectGate gate = null;
    MeteredGateListener listener = null;
    if (staggerOn) {
      listener = new MeteredGateListener(meters, type);
      gate =
          new ReconnectGate(
              StaggerSettings.forClient(config, type, timeoutConfigs.of(networkClient)),
              admission,
              null,
              listener);
    }
    return new KafkaClient(
        this,
        serials.incrementAndGet(),
        networkClient,
        selector,
        connectionStates,
        clientId,
        type,
        phases,
        gate,
        listener);
  }

  // ---- shared services for KafkaClient ----

  long slowRequestNanos() {
    return slowRequestNanos;
  }

  long deliveryAfterNanos() {
    return deliveryAfterNanos;
  }

  boolean deliveryObservable() {
    return deliveryObservable;
  }

  DeliverySampler deliverySampler() {
    return deliverySampler;
  }

  TcpInfoReader tcpInfoReader() {
    return tcpInfoReader;
  }

  void sampleSoon(String connectionKey) {
    scheduler.execute(() -> monitor.sampleNow(connectionKey));
  }

  void connectionOpened(String key, KafkaClient client, String node, BrokerConnection connection) {
    byConnectionKey.put(key, client);
    connections.put(key, connection);
    monitor.add(key, connection);
  }

  void connectionClosed(String key) {
    byConnectionKey.remove(key);
    connections.remove(key);
    monitor.remove(key);
  }

  void clientClosed(KafkaClient client) {
    synchronized (clients) {
      clients.remove(client);
    }
    if (lastSeen.get() == client) {
      lastSeen.remove();
    }
    findings.replaceAll(transmitBoundSource(client), List.of());
    // What outlives a connection (a stalled link's finding) goes with its client.
    monitor.removeAll(client.connectionKey(""));
  }

  /** The broker connections watched now, by monitor key. */
  Map<String, BrokerConnection> connections() {
    return Map.copyOf(connections);
  }

  /** The live clients. */
  Collection<KafkaClient> clients() {
    synchronized (clients) {
      return List.copyOf(clients);
    }
  }

  /** The configuration the clients were built with. */
  FaultlineConfig config() {
    return config;
  }

  // The recycler's action: runs on the sampler thread, so it only asks the client's own thread.
  boolean recycle(String connectionKey, String reason) {
    KafkaClient client = byConnectionKey.get(connectionKey);
    if (client == null) {
      return false;
    }
    String node = connectionKey.substring(connectionKey.lastIndexOf('/') + 1);
    boolean asked = client.requestRecycle(node);
    if (asked) {
      LOG.log(
          Level.WARNING,
          "faultline: recycling the connection of Kafka client "
              + LogText.oneLine(client.clientId())
              + " to node "
              + LogText.oneLine(node)
              + ": "
              + reason);
    }
    return asked;
  }

  void checkTransmitBound() {
    try {
      for (KafkaClient client : clients()) {
        if (client.phases() != null) {
          findings.replaceAll(transmitBoundSource(client), client.phases().transmitBoundFindings());
        }
      }
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "faultline: KAFKA_TRANSMIT_BOUND check failed", e);
    }
  }

  private static String transmitBoundSource(KafkaClient client) {
    return "kafka.phases:" + client.serial();
  }
}
