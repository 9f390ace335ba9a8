package io.faultline.kafka.phase;

import io.faultline.core.finding.Finding;
import io.faultline.kafka.ClientType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The request phases of one Kafka client (one {@code NetworkClient}), per broker node: the object
 * the agent's advice calls. Every method takes the node id as the client's {@code Selector} names
 * it and a {@link System#nanoTime()} timestamp; the per-node {@link ConnectionPhaseTracker}, its
 * meters and its sums are created on first use.
 *
 * <p>Where each call belongs (kafka-clients 2.8–4.4):
 *
 * <ul>
 *   <li>{@link #requestCreated}: {@code NetworkClient.doSend(ClientRequest, boolean, long,
 *       AbstractRequest)}, on entry: {@code clientRequest.destination()}, {@code correlationId()},
 *       {@code apiKey().id}, {@code expectResponse()};
 *   <li>{@link #bytesWritten}/{@link #sendCompleted}: {@code KafkaChannel.write()} returning more
 *       than 0 / {@code Selector.write(KafkaChannel)} when it adds a send to {@code completedSends}
 *       ({@code NetworkSend.destinationId()}, {@code size()});
 *   <li>{@link #responseStarted}: the first read of a {@code NetworkReceive} (its size bytes);
 *   <li>{@link #responseCompleted}: {@code Selector.addToCompletedReceives(KafkaChannel,
 *       NetworkReceive, long)}; the correlation id is {@code receive.payload().getInt(0)}, or -1;
 *   <li>{@link #tcpSample}: when {@link #awaitingDelivery} says so, with TCP_INFO's {@code
 *       bytes_acked};
 *   <li>{@link #connectionClosed}: {@code Selector.close(KafkaChannel, CloseMode)} or a new {@code
 *       Selector.connect} for the node.
 * </ul>
 *
 * <p>Threading: the event methods are called on the thread that drives the client's {@code
 * NetworkClient}, which Kafka confines to one thread at a time; {@link #transmitBoundFindings} may
 * be called from a sampler thread.
 */
public final class ClientPhases implements AutoCloseable {

  private final PhaseMeters meters;
  private final ClientType clientType;
  private final String clientId;
  private final boolean deliveryObservable;
  private final TransmitBoundDetector detector;
  private final Map<String, ConnectionPhaseTracker> trackers = new HashMap<>();
  private final Map<String, NodePhaseStats> stats = new ConcurrentHashMap<>();
  private final Map<String, NodePhaseStats.Snapshot> lastSnapshots = new HashMap<>();
  private final Map<String, MeteredPhaseRecorder> recorders = new ConcurrentHashMap<>();

  /**
   * @param meters the phase timers to add this client's histograms to; {@code null} for none (the
   *     sums and percentiles are still kept)
   * @param clientType the client's kind
   * @param clientId its {@code client.id}
   * @param deliveryObservable whether TCP_INFO samples will come (Linux, descriptor known)
   * @param detector the {@code KAFKA_TRANSMIT_BOUND} rule
   */
  public ClientPhases(
      PhaseMeters meters,
      ClientType clientType,
      String clientId,
      boolean deliveryObservable,
      TransmitBoundDetector detector) {
    this.meters = meters;
    this.clientType = clientType;
    this.clientId = clientId == null ? "" : clientId;
    this.deliveryObservable = deliveryObservable;
    this.detector = detector;
  }

  /** The tracker of {@code nodeId}'s connection, created on first use. */
  public ConnectionPhaseTracker tracker(String nodeId) {
    ConnectionPhaseTracker t = trackers.get(nodeId);
    if (t == null) {
      NodePhaseStats sums = stats.computeIfAbsent(nodeId, k -> new NodePhaseStats());
      MeteredPhaseRecorder recorder =
          new MeteredPhaseRecorder(
              meters,
              clientType,
              clientId,
              nodeId,
              RequestRecordings.around(clientType, clientId, nodeId, sums));
      recorders.put(nodeId, recorder);
      t = new ConnectionPhaseTracker(recorder, deliveryObservable);
      trackers.put(nodeId, t);
    }
    return t;
  }

  /** See {@link ConnectionPhaseTracker#requestCreated}. */
  public void requestCreated(
      String nodeId, int correlation, short apiKey, boolean expectResponse, long nowNanos) {
    tracker(nodeId).requestCreated(correlation, apiKey, expectResponse, nowNanos);
  }

  /** See {@link ConnectionPhaseTracker#bytesWritten}. */
  public void bytesWritten(String nodeId, long bytes, long nowNanos) {
    tracker(nodeId).bytesWritten(bytes, nowNanos);
  }

  /** See {@link ConnectionPhaseTracker#plaintextWritten}. */
  public void plaintextWritten(String nodeId, long nowNanos) {
    tracker(nodeId).plaintextWritten(nowNanos);
  }

  /** See {@link ConnectionPhaseTracker#recordBytesWritten}. */
  public void recordBytesWritten(String nodeId, long bytes) {
    tracker(nodeId).recordBytesWritten(bytes);
  }

  /** See {@link ConnectionPhaseTracker#sendCompleted}. */
  public void sendCompleted(String nodeId, long sizeBytes, long nowNanos) {
    tracker(nodeId).sendCompleted(sizeBytes, nowNanos);
  }

  /** See {@link ConnectionPhaseTracker#awaitingDelivery}. */
  public boolean awaitingDelivery(String nodeId) {
    ConnectionPhaseTracker t = trackers.get(nodeId);
    return t != null && t.awaitingDelivery();
  }

  /** See {@link ConnectionPhaseTracker#awaitingDeliverySince}. */
  public long awaitingDeliverySince(String nodeId) {
    ConnectionPhaseTracker t = trackers.get(nodeId);
    return t == null ? Long.MIN_VALUE : t.awaitingDeliverySince();
  }

  /** See {@link ConnectionPhaseTracker#tcpSample}. */
  public void tcpSample(String nodeId, long bytesAcked, long nowNanos) {
    tracker(nodeId).tcpSample(bytesAcked, nowNanos);
  }

  /** See {@link ConnectionPhaseTracker#responseStarted}. */
  public void responseStarted(String nodeId, long nowNanos) {
    tracker(nodeId).responseStarted(nowNanos);
  }

  /** See {@link ConnectionPhaseTracker#responseCompleted}; returns the latency or -1. */
  public long responseCompleted(String nodeId, int correlation, long nowNanos) {
    return tracker(nodeId).responseCompleted(correlation, nowNanos);
  }

  /** The node's connection closed: what was in flight is forgotten; the meters stay. */
  public void connectionClosed(String nodeId) {
    ConnectionPhaseTracker t = trackers.get(nodeId);
    if (t != null) {
      t.reset();
    }
  }

  /**
   * {@code KAFKA_TRANSMIT_BOUND} findings over the interval since the previous call (the first call
   * covers everything so far).
   */
  public synchronized List<Finding> transmitBoundFindings() {
    Map<String, NodePhaseStats.Snapshot> interval = new HashMap<>();
    for (Map.Entry<String, NodePhaseStats> e : stats.entrySet()) {
      NodePhaseStats.Snapshot now = e.getValue().snapshot();
      NodePhaseStats.Snapshot before =
          lastSnapshots.getOrDefault(e.getKey(), NodePhaseStats.Snapshot.EMPTY);
      lastSnapshots.put(e.getKey(), now);
      interval.put(e.getKey(), now.minus(before));
    }
    return detector.evaluate(clientId, interval);
  }

  /** The client id as given. */
  public String clientId() {
    return clientId;
  }

  /**
   * Phase distributions so far, per node (the {@code node.id} tag value), API name and phase: what
   * the status page shows as percentiles.
   */
  public Map<String, Map<String, Map<Phase, PhaseHistogram.Snapshot>>> distributions() {
    Map<String, Map<String, Map<Phase, PhaseHistogram.Snapshot>>> out = new java.util.TreeMap<>();
    for (MeteredPhaseRecorder r : recorders.values()) {
      out.put(r.nodeId(), r.snapshots());
    }
    return out;
  }

  /** Takes this client's histograms out of the timers (their totals keep what it counted). */
  @Override
  public void close() {
    recorders.values().forEach(MeteredPhaseRecorder::close);
    recorders.clear();
  }
}
