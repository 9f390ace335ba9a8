package io.faultline.kafka.phase;

import io.faultline.kafka.ClientTags;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeters;
import io.micrometer.core.instrument.Tags;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Records one client's requests to one broker node into {@link PhaseHistogram}s — one per API and
 * phase, plus the gap — and adds them to the {@code faultline.kafka.request.phase} and {@code
 * faultline.kafka.request.gap} timers of {@link PhaseMeters}, which read the histograms' counts and
 * sums at scrape time: recording a request costs a few array writes instead of six {@code
 * Timer.record} calls. A histogram is created on its first value (a connection sees a few APIs, and
 * each API either the delivery and response phases or the merged one), so an agent tracking
 * thousands of connections holds only what they used. {@link #close()} takes the histograms out of
 * the timers, whose totals keep what they counted.
 *
 * <p>{@link #record} is called by one thread at a time (the client's I/O thread); {@link
 * #snapshots} and {@link #close} from any.
 */
public final class MeteredPhaseRecorder implements PhaseRecorder, AutoCloseable {

  private static final Phase[] PHASES = Phase.values();
  private static final int QUEUE = Phase.QUEUE.ordinal();
  private static final int TRANSMIT = Phase.TRANSMIT.ordinal();
  private static final int DELIVERY = Phase.DELIVERY.ordinal();
  private static final int RESPONSE = Phase.RESPONSE.ordinal();
  private static final int RESPONSE_INCL_DELIVERY = Phase.RESPONSE_INCL_DELIVERY.ordinal();
  private static final int RECEIVE = Phase.RECEIVE.ordinal();
  // The gap's histogram sits after the phases' in an API's arrays.
  private static final int GAP = PHASES.length;

  private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);

  /** One API's histograms and the timers they were added to, by phase ordinal, then the gap. */
  private static final class ApiHistograms {
    final short apiKey;
    final PhaseHistogram[] histograms = new PhaseHistogram[GAP + 1];
    final PhaseMeters.Timer[] timers = new PhaseMeters.Timer[GAP + 1];

    ApiHistograms(short apiKey) {
      this.apiKey = apiKey;
    }
  }

  private static final ApiHistograms[] NO_APIS = new ApiHistograms[0];

  private final PhaseMeters meters;
  private final Tags base;
  private final String nodeId;
  // Copy-on-write (the writer appends; readers see a whole array); a connection uses a few APIs.
  private volatile ApiHistograms[] apis = NO_APIS;
  private ApiHistograms last;
  private boolean closed;
  private final PhaseRecorder next;

  /**
   * A recorder for one client's connection to one node.
   *
   * @param meters the timers to add the histograms to, or {@code null} for histograms only
   * @param clientType the client's kind
   * @param clientId the client's {@code client.id} (sanitised and capped here)
   * @param nodeId the node id as Kafka's selector names it ({@code "1"}, {@code "-1"} for
   *     bootstrap)
   * @param next a recorder to pass every request on to (for example {@link NodePhaseStats}), or
   *     {@code null}
   */
  public MeteredPhaseRecorder(
      PhaseMeters meters,
      ClientType clientType,
      String clientId,
      String nodeId,
      PhaseRecorder next) {
    this.meters = meters;
    this.nodeId = ClientTags.nodeId(nodeId);
    this.base = meters == null ? Tags.empty() : meters.tagging().of(clientType, clientId, nodeId);
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
    ApiHistograms a = last;
    if (a == null || a.apiKey != apiKey) {
      a = api(apiKey);
    }
    histogram(a, QUEUE).record(queueNanos);
    histogram(a, TRANSMIT).record(transmitNanos);
    if (responseNanos >= 0) {
      if (deliveryNanos >= 0) {
        histogram(a, DELIVERY).record(deliveryNanos);
        histogram(a, RESPONSE).record(responseNanos);
      } else {
        histogram(a, RESPONSE_INCL_DELIVERY).record(responseNanos);
      }
      histogram(a, RECEIVE).record(receiveNanos);
      histogram(a, GAP)
          .record(queueNanos + transmitNanos + Math.max(deliveryNanos, 0) + receiveNanos);
    }
    next.record(apiKey, queueNanos, transmitNanos, deliveryNanos, responseNanos, receiveNanos);
  }

  private ApiHistograms api(short apiKey) {
    ApiHistograms[] all = apis;
    for (ApiHistograms a : all) {
      if (a.apiKey == apiKey) {
        last = a;
        return a;
      }
    }
    ApiHistograms a = new ApiHistograms(apiKey);
    ApiHistograms[] grown = Arrays.copyOf(all, all.length + 1);
    grown[all.length] = a;
    apis = grown;
    last = a;
    return a;
  }

  private PhaseHistogram histogram(ApiHistograms a, int index) {
    PhaseHistogram h = a.histograms[index];
    return h != null ? h : create(a, index);
  }

  private synchronized PhaseHistogram create(ApiHistograms a, int index) {
    PhaseHistogram h = new PhaseHistogram();
    if (meters != null && !closed) {
      String apiName = ApiNames.of(a.apiKey);
      a.timers[index] =
          index == GAP
              ? meters.attach(KafkaMeters.REQUEST_GAP, base.and("api", apiName), h)
              : meters.attach(
                  KafkaMeters.REQUEST_PHASE,
                  base.and("api", apiName, "phase", PHASES[index].tagValue()),
                  h);
    }
    SLOTS.setRelease(a.histograms, index, h); // readers see it whole
    return h;
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
    ApiHistograms[] all = apis.clone();
    Arrays.sort(all, (x, y) -> Short.compare(x.apiKey, y.apiKey));
    for (ApiHistograms a : all) {
      Map<Phase, PhaseHistogram.Snapshot> byPhase = new LinkedHashMap<>();
      for (Phase phase : PHASES) {
        PhaseHistogram h = (PhaseHistogram) SLOTS.getAcquire(a.histograms, phase.ordinal());
        PhaseHistogram.Snapshot s = h == null ? null : h.snapshot();
        if (s != null && s.count() > 0) {
          byPhase.put(phase, s);
        }
      }
      if (!byPhase.isEmpty()) {
        out.put(ApiNames.of(a.apiKey), byPhase);
      }
    }
    return out;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (ApiHistograms a : apis) {
      for (int i = 0; i <= GAP; i++) {
        if (a.timers[i] != null) {
          a.timers[i].retire(a.histograms[i]);
          a.timers[i] = null;
        }
      }
    }
  }
}
