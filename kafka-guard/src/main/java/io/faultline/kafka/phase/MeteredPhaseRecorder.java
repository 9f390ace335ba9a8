package io.faultline.kafka.phase;

import io.faultline.core.metrics.MeterDoc;
import io.faultline.kafka.ClientTags;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeters;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Records one client's requests to one broker node into {@link PhaseHistogram}s — one per API and
 * phase, plus the gap — and publishes them as the {@code faultline.kafka.request.phase} and {@code
 * faultline.kafka.request.gap} timers. The timers are {@link FunctionTimer}s that read the
 * histograms' count and sum at scrape time, so recording a request costs a few array writes instead
 * of six {@code Timer.record} calls. Histograms and timers are created on the first request of each
 * API. {@link #close()} removes every meter it registered.
 */
public final class MeteredPhaseRecorder implements PhaseRecorder, AutoCloseable {

  private static final Phase[] PHASES = Phase.values();
  private static final int MAX_API = 256;
  private static final int QUEUE = Phase.QUEUE.ordinal();
  private static final int TRANSMIT = Phase.TRANSMIT.ordinal();
  private static final int DELIVERY = Phase.DELIVERY.ordinal();
  private static final int RESPONSE = Phase.RESPONSE.ordinal();
  private static final int RESPONSE_INCL_DELIVERY = Phase.RESPONSE_INCL_DELIVERY.ordinal();
  private static final int RECEIVE = Phase.RECEIVE.ordinal();

  private final MeterRegistry registry;
  private final Tags base;
  private final String nodeId;
  // [api][phase ordinal], and [api] for the gap; written by the I/O thread, read by the page.
  private final PhaseHistogram[][] phases = new PhaseHistogram[MAX_API][];
  private final PhaseHistogram[] gaps = new PhaseHistogram[MAX_API];
  private final List<Meter.Id> registered = new ArrayList<>();
  private final PhaseRecorder next;

  /**
   * A recorder for one client's connection to one node.
   *
   * @param registry where the timers go, or {@code null} for histograms only
   * @param clientType the client's kind
   * @param clientId the client's {@code client.id} (sanitised and capped here)
   * @param nodeId the node id as Kafka's selector names it ({@code "1"}, {@code "-1"} for
   *     bootstrap)
   * @param next a recorder to pass every request on to (for example {@link NodePhaseStats}), or
   *     {@code null}
   */
  public MeteredPhaseRecorder(
      MeterRegistry registry,
      ClientType clientType,
      String clientId,
      String nodeId,
      PhaseRecorder next) {
    this.registry = registry;
    String type = clientType == null ? ClientType.OTHER.tagValue() : clientType.tagValue();
    this.nodeId = ClientTags.nodeId(nodeId);
    this.base =
        Tags.of(
            "client.type",
            type,
            "client.id",
            ClientTags.clientId(clientId),
            "node.id",
            this.nodeId);
    this.next = next == null ? PhaseRecorder.NONE : next;
  }

  @Override
  public void record(
      short apiKey,
      long queueNanos,
      long transmitNanos,
      long deliveryNanos,
      long responseNanos,
      long receiveNanos) {
    int api = apiKey & (MAX_API - 1);
    PhaseHistogram[] h = phases[api];
    if (h == null) {
      h = register(apiKey);
    }
    h[QUEUE].record(queueNanos);
    h[TRANSMIT].record(transmitNanos);
    if (responseNanos >= 0) {
      if (deliveryNanos >= 0) {
        h[DELIVERY].record(deliveryNanos);
        h[RESPONSE].record(responseNanos);
      } else {
        h[RESPONSE_INCL_DELIVERY].record(responseNanos);
      }
      h[RECEIVE].record(receiveNanos);
      gaps[api].record(queueNanos + transmitNanos + Math.max(deliveryNanos, 0) + receiveNanos);
    }
    next.record(apiKey, queueNanos, transmitNanos, deliveryNanos, responseNanos, receiveNanos);
  }

  private PhaseHistogram[] register(short apiKey) {
    int api = apiKey & (MAX_API - 1);
    String apiName = ApiNames.of(apiKey);
    PhaseHistogram[] h = new PhaseHistogram[PHASES.length];
    for (Phase phase : PHASES) {
      h[phase.ordinal()] = new PhaseHistogram();
      publish(
          KafkaMeters.REQUEST_PHASE,
          base.and("api", apiName, "phase", phase.tagValue()),
          h[phase.ordinal()]);
    }
    PhaseHistogram gap = new PhaseHistogram();
    publish(KafkaMeters.REQUEST_GAP, base.and("api", apiName), gap);
    gaps[api] = gap;
    phases[api] = h; // last: a reader that sees it sees the gap too
    return h;
  }

  private void publish(MeterDoc doc, Tags tags, PhaseHistogram histogram) {
    if (registry == null) {
      return;
    }
    FunctionTimer t =
        FunctionTimer.builder(
                doc.name(),
                histogram,
                PhaseHistogram::count,
                PhaseHistogram::sumNanos,
                TimeUnit.NANOSECONDS)
            .description(doc.description())
            .tags(tags)
            .register(registry);
    registered.add(t.getId());
  }

  /** The node id tag value. */
  public String nodeId() {
    return nodeId;
  }

  /**
   * Snapshots of every API seen so far: API name → phase → histogram (only phases that recorded
   * something).
   */
  public Map<String, Map<Phase, PhaseHistogram.Snapshot>> snapshots() {
    Map<String, Map<Phase, PhaseHistogram.Snapshot>> out = new LinkedHashMap<>();
    for (int api = 0; api < MAX_API; api++) {
      PhaseHistogram[] h = phases[api];
      if (h == null) {
        continue;
      }
      Map<Phase, PhaseHistogram.Snapshot> byPhase = new LinkedHashMap<>();
      for (Phase phase : PHASES) {
        PhaseHistogram.Snapshot s = h[phase.ordinal()].snapshot();
        if (s.count() > 0) {
          byPhase.put(phase, s);
        }
      }
      if (!byPhase.isEmpty()) {
        out.put(ApiNames.of((short) api), byPhase);
      }
    }
    return out;
  }

  @Override
  public void close() {
    if (registry != null) {
      for (Meter.Id id : registered) {
        registry.remove(id);
      }
    }
    registered.clear();
  }
}
