package io.faultline.kafka.phase;

import io.faultline.kafka.ClientTags;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Records one client's requests to one broker node as {@code faultline.kafka.request.phase} and
 * {@code faultline.kafka.request.gap} timers. Timers are registered on first use of each API and
 * cached in arrays, so recording is a few array reads and {@code Timer.record} calls. {@link
 * #close()} removes every meter it registered.
 */
public final class MeteredPhaseRecorder implements PhaseRecorder, AutoCloseable {

  private static final Phase[] PHASES = Phase.values();
  private static final int MAX_API = 256;

  private final MeterRegistry registry;
  private final Tags base;
  private final Tags gapBase;
  private final Timer[][] phaseTimers = new Timer[MAX_API][];
  private final Timer[] gapTimers = new Timer[MAX_API];
  private final List<Meter.Id> registered = new ArrayList<>();
  private final PhaseRecorder next;

  /**
   * A recorder for one client's connection to one node.
   *
   * @param registry where the timers go
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
    this.base =
        Tags.of(
            "client.type", type,
            "client.id", ClientTags.clientId(clientId),
            "node.id", ClientTags.nodeId(nodeId));
    this.gapBase = base;
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
    Timer[] timers = phaseTimers[api];
    if (timers == null) {
      timers = register(apiKey);
    }
    timers[Phase.QUEUE.ordinal()].record(queueNanos, TimeUnit.NANOSECONDS);
    timers[Phase.TRANSMIT.ordinal()].record(transmitNanos, TimeUnit.NANOSECONDS);
    if (responseNanos >= 0) {
      if (deliveryNanos >= 0) {
        timers[Phase.DELIVERY.ordinal()].record(deliveryNanos, TimeUnit.NANOSECONDS);
        timers[Phase.RESPONSE.ordinal()].record(responseNanos, TimeUnit.NANOSECONDS);
      } else {
        timers[Phase.RESPONSE_INCL_DELIVERY.ordinal()].record(responseNanos, TimeUnit.NANOSECONDS);
      }
      timers[Phase.RECEIVE.ordinal()].record(receiveNanos, TimeUnit.NANOSECONDS);
      long gap = queueNanos + transmitNanos + Math.max(deliveryNanos, 0) + receiveNanos;
      gapTimers[api].record(gap, TimeUnit.NANOSECONDS);
    }
    next.record(apiKey, queueNanos, transmitNanos, deliveryNanos, responseNanos, receiveNanos);
  }

  private Timer[] register(short apiKey) {
    int api = apiKey & (MAX_API - 1);
    String apiName = ApiNames.of(apiKey);
    Timer[] timers = new Timer[PHASES.length];
    for (Phase phase : PHASES) {
      Timer t =
          KafkaMeters.REQUEST_PHASE
              .timer()
              .tags(base.and("api", apiName, "phase", phase.tagValue()))
              .register(registry);
      registered.add(t.getId());
      timers[phase.ordinal()] = t;
    }
    Timer gap =
        KafkaMeters.REQUEST_GAP.timer().tags(gapBase.and("api", apiName)).register(registry);
    registered.add(gap.getId());
    gapTimers[api] = gap;
    phaseTimers[api] = timers;
    return timers;
  }

  @Override
  public void close() {
    for (Meter.Id id : registered) {
      registry.remove(id);
    }
    registered.clear();
  }
}
