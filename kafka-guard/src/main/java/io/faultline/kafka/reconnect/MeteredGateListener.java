package io.faultline.kafka.reconnect;

import io.faultline.kafka.ClientTags;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Records a gate's decisions as {@code faultline.kafka.stagger.delay} and {@code
 * faultline.kafka.connect.attempts}. Decisions are rare (connection initiations), so counters are
 * looked up in a map. Same thread rules as the gate. Listeners of clients of one type share their
 * meters; {@link #close()} removes those no other open listener holds.
 */
public final class MeteredGateListener implements GateListener, AutoCloseable {

  private final MeterRegistry registry;
  private final Timer delay;
  private final Map<String, Counter> attempts = new HashMap<>();
  private final List<Meter.Id> registered = new ArrayList<>();

  /** Records into {@code registry} for a client of {@code clientType}. */
  public MeteredGateListener(MeterRegistry registry, ClientType clientType) {
    this.registry = registry;
    this.delay =
        KafkaMeters.STAGGER_DELAY
            .timer()
            .tags(KafkaMeters.STAGGER_DELAY.tags(clientType.tagValue()))
            .register(registry);
    hold(delay.getId());
  }

  @Override
  public void attempt(String nodeId, Outcome outcome) {
    String node = ClientTags.nodeId(nodeId);
    attempts
        .computeIfAbsent(
            node + "/" + outcome.tagValue(),
            k -> {
              Counter c =
                  KafkaMeters.CONNECT_ATTEMPTS
                      .counter()
                      .tags(KafkaMeters.CONNECT_ATTEMPTS.tags(node, outcome.tagValue()))
                      .register(registry);
              hold(c.getId());
              return c;
            })
        .increment();
  }

  private void hold(Meter.Id id) {
    registered.add(id);
    SharedMeters.hold(registry, id);
  }

  @Override
  public void delayed(String nodeId, long delayNanos) {
    delay.record(delayNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {
    registered.forEach(id -> SharedMeters.release(registry, id));
    registered.clear();
    attempts.clear();
  }
}
