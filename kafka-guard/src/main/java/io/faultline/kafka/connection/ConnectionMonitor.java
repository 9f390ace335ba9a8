package io.faultline.kafka.connection;

import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpState;
import io.faultline.kafka.KafkaFindingTypes;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.KafkaMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples the broker connections of the process: each {@link BrokerConnection} added here gets its
 * gauges, is sampled every {@code kafka.tcp.interval} (or at once with {@link #sampleNow}, after a
 * slow request), has its findings reported to {@link Findings} (source {@code kafka.tcp:<key>}, so
 * a healed connection's findings clear), and is offered to the {@link Recycler}; a recycle raises
 * {@code KAFKA_CONNECTION_RECYCLED}, which stays while the key's connections come back crippled and
 * clears once a later connection under the key samples healthy or goes away (the recycle did its
 * job, or there is nothing left to recycle). A stalled link raises {@code
 * KAFKA_BROKER_LINK_STALLED} ({@link LinkStall}), which outlives the stalled connection (the
 * client's reconnects to a broker it cannot reach are not connections yet) and clears once a
 * connection under the key is acknowledged again or its client is {@linkplain #removeAll gone}.
 * Thread-safe; never throws into the caller.
 */
public final class ConnectionMonitor implements AutoCloseable {

  private static final System.Logger LOG = Loggers.get(ConnectionMonitor.class.getName());

  private final Findings findings;
  private final Recycler recycler;
  private final LateRegistry registry;
  private final ConnectionMeters gauges;
  private final KafkaMeterTags tagging;
  private final LongSupplier nanoClock;
  private final Map<String, BrokerConnection> watched = new ConcurrentHashMap<>();

  /** The connection recycled under a key, and its finding's subject, until that finding clears. */
  private record Recycled(BrokerConnection connection, String subject) {}

  private final Map<String, Recycled> recycledUnder = new ConcurrentHashMap<>();

  /**
   * The finding subject of a key whose link stalled, until a connection under the key is
   * acknowledged again, the key's client goes, or the monitor closes.
   */
  private final Map<String, String> stalledUnder = new ConcurrentHashMap<>();

  private ScheduledExecutorService scheduler;

  /**
   * A monitor whose gauges are per client type and node ({@link KafkaMeterTags#DEFAULT}).
   *
   * @param findings where findings go
   * @param recycler decides recycling; {@code null} for none
   * @param registry where the connection gauges go; {@code null} for none
   * @param nanoClock {@link System#nanoTime()} or a test clock
   */
  public ConnectionMonitor(
      Findings findings, Recycler recycler, MeterRegistry registry, LongSupplier nanoClock) {
    this(findings, recycler, registry, KafkaMeterTags.DEFAULT, nanoClock);
  }

  /**
   * @param findings where findings go
   * @param recycler decides recycling; {@code null} for none
   * @param registry where the connection gauges go; {@code null} for none
   * @param tagging which tags the gauges carry
   * @param nanoClock {@link System#nanoTime()} or a test clock
   */
  public ConnectionMonitor(
      Findings findings,
      Recycler recycler,
      MeterRegistry registry,
      KafkaMeterTags tagging,
      LongSupplier nanoClock) {
    this(
        findings,
        recycler,
        registry == null ? null : LateRegistry.of(registry),
        tagging,
        nanoClock);
  }

  /**
   * A monitor whose meters go into a registry that may not exist yet: they are registered once it
   * does.
   *
   * @param findings where findings go
   * @param recycler decides recycling; {@code null} for none
   * @param registry where the connection gauges go; {@code null} for none
   * @param tagging which tags the gauges carry
   * @param nanoClock {@link System#nanoTime()} or a test clock
   */
  public ConnectionMonitor(
      Findings findings,
      Recycler recycler,
      LateRegistry registry,
      KafkaMeterTags tagging,
      LongSupplier nanoClock) {
    this.findings = findings;
    this.recycler = recycler;
    this.registry = registry;
    this.gauges = registry == null ? null : new ConnectionMeters(registry, tagging);
    this.tagging = tagging == null ? KafkaMeterTags.DEFAULT : tagging;
    this.nanoClock = nanoClock == null ? System::nanoTime : nanoClock;
  }

  /**
   * Watches {@code connection} under {@code key} (e.g. {@code clientId/nodeId}); a connection
   * already under that key (the previous one, before a reconnect) is replaced.
   */
  public void add(String key, BrokerConnection connection) {
    BrokerConnection previous = watched.put(key, connection);
    // The new connection joins its gauges before the old one leaves: the gauges stay registered.
    if (gauges != null && previous != connection) {
      gauges.add(connection);
      if (previous != null) {
        gauges.remove(previous);
      }
    }
    if (recycler != null) {
      recycler.onReconnected(key);
    }
  }

  /** Stops watching {@code key}; its findings clear and its gauges go. */
  public void remove(String key) {
    BrokerConnection c = watched.remove(key);
    if (c != null && gauges != null) {
      gauges.remove(c);
    }
    findings.replaceAll(source(key), List.of());
    // The recycle's own disconnect removes the recycled connection: the finding stays for its
    // successor to settle. A later connection going away leaves nothing the finding is about.
    Recycled r = recycledUnder.get(key);
    if (r != null && c != null && c != r.connection()) {
      clearRecycled(key, r);
    }
  }

  /**
   * Stops watching every key that starts with {@code keyPrefix} (a client that closed) and ends
   * what is remembered under those keys, a stalled link included.
   */
  public void removeAll(String keyPrefix) {
    for (String key : List.copyOf(watched.keySet())) {
      if (key.startsWith(keyPrefix)) {
        remove(key);
      }
    }
    for (Map.Entry<String, String> stalled : List.copyOf(stalledUnder.entrySet())) {
      if (stalled.getKey().startsWith(keyPrefix)) {
        clearStalled(stalled.getKey(), stalled.getValue());
      }
    }
  }

  private void clearStalled(String key, String subject) {
    if (stalledUnder.remove(key, subject)) {
      findings.clear(KafkaFindingTypes.KAFKA_BROKER_LINK_STALLED.id(), subject);
    }
  }

  private void clearRecycled(String key, Recycled r) {
    if (recycledUnder.remove(key, r)) {
      findings.clear(KafkaFindingTypes.KAFKA_CONNECTION_RECYCLED.id(), r.subject());
    }
  }

  /** Samples every watched connection now. */
  public void sampleAll() {
    for (String key : watched.keySet()) {
      sampleNow(key);
    }
  }

  /** Samples one connection now (a slow request, or the interval); returns its findings. */
  public List<Finding> sampleNow(String key) {
    BrokerConnection connection = watched.get(key);
    if (connection == null) {
      return List.of();
    }
    try {
      Outcome<TcpFacts> facts = connection.sample();
      if (!facts.isAvailable()) {
        return List.of(); // keep what was reported: one failed read says nothing new
      }
      TcpFacts f = facts.value().orElseThrow();
      long now = nanoClock.getAsLong();
      List<Finding> current =
          new ArrayList<>(
              ConnectionHealth.evaluate(connection, f, connection.peerWindow().observe(f, now)));
      findings.replaceAll(source(key), current);
      // A bootstrap connection (negative node id) carries metadata only and is not reconnected
      // once closed: recycling it gains nothing and would hold the one-recycle-in-progress guard.
      boolean bootstrap = connection.nodeId().startsWith("-");
      Recycler.Decision decision =
          recycler == null || bootstrap
              ? Recycler.Decision.HEALTHY
              : recycler.onSample(key, f, now);
      countRecycleDecision(connection, decision);
      Recycled earlier = recycledUnder.get(key);
      if (earlier != null && earlier.connection() != connection && current.isEmpty()) {
        // The connection that replaced the recycled one is healthy: the recycle worked.
        clearRecycled(key, earlier);
      }
      reportStall(key, connection, f).ifPresent(current::add);
      if (decision == Recycler.Decision.RECYCLED) {
        Finding recycled =
            Finding.of(KafkaFindingTypes.KAFKA_CONNECTION_RECYCLED, connection.subject())
                .message("Closed the connection so the client reconnects: " + f.describe())
                .evidence("window_scaling", f.windowScaling())
                .evidence("rtt_ms", f.rttMicros() / 1000.0)
                .build();
        findings.raise(recycled);
        recycledUnder.put(key, new Recycled(connection, connection.subject()));
        current.add(recycled);
      }
      return current;
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "Faultline: sampling " + LogText.oneLine(key) + " failed", e);
      return List.of();
    }
  }

  /**
   * Raises or refreshes the key's stall finding while {@code facts} show one; ends it once an
   * established connection under the key shows none (an acknowledgement arrived: a stall only ends
   * that way).
   */
  private Optional<Finding> reportStall(String key, BrokerConnection connection, TcpFacts facts) {
    var stall = LinkStall.of(facts.info());
    if (stall.isPresent()) {
      Finding stalled = ConnectionHealth.linkStalled(connection, stall.get());
      findings.raise(stalled);
      stalledUnder.put(key, connection.subject());
      return Optional.of(stalled);
    }
    String subject = stalledUnder.get(key);
    if (subject != null && facts.info().state() == TcpState.ESTABLISHED) {
      clearStalled(key, subject);
    }
    return Optional.empty();
  }

  private void countRecycleDecision(BrokerConnection connection, Recycler.Decision decision) {
    if (registry == null
        || decision == Recycler.Decision.HEALTHY
        || decision == Recycler.Decision.SUSPECT) {
      return;
    }
    // Tagged like the connection gauges: client.id only where kafka.meters.client-id asks for it.
    Tags tags = tagging.of(connection.clientType(), connection.clientId(), connection.nodeId());
    String outcome = decision.name().toLowerCase(java.util.Locale.ROOT);
    registry.whenReady(
        r ->
            KafkaMeters.CONNECTION_RECYCLES
                .counter()
                .tags(tags)
                .tag("outcome", outcome)
                .register(r)
                .increment());
  }

  /** Samples every connection every {@code interval} on a daemon thread until {@link #close()}. */
  public synchronized void start(Duration interval) {
    if (scheduler != null) {
      return;
    }
    long millis = Math.max(100, interval.toMillis());
    scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "faultline-kafka-tcp");
              t.setDaemon(true);
              return t;
            });
    scheduler.scheduleWithFixedDelay(this::sampleAll, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Stops sampling and removes every gauge. */
  @Override
  public synchronized void close() {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
    for (String key : List.copyOf(watched.keySet())) {
      remove(key);
    }
    recycledUnder.forEach(this::clearRecycled);
    stalledUnder.forEach(this::clearStalled);
  }

  private static String source(String key) {
    return "kafka.tcp:" + key;
  }
}
