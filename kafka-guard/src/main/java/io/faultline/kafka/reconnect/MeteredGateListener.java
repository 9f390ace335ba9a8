package io.faultline.kafka.reconnect;

import io.faultline.core.metrics.LateRegistry;
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
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Records a gate's decisions as {@code faultline.kafka.stagger.delay} and {@code
 * faultline.kafka.connect.attempts}. Decisions are rare (connection initiations), so counters are
 * looked up in a map. Listeners of clients of one type share their meters; {@link #close()} removes
 * those no other open listener holds. With a registry that does not exist yet, decisions are
 * recorded once it does, in order.
 */
public final class MeteredGateListener implements GateListener, AutoCloseable {

  private final LateRegistry late;
  private final ClientType clientType;
  // Set once, when the registry exists; the gate's thread reads them.
  private volatile MeterRegistry registry;
  private volatile Timer delay;
  // Guarded by this.
  private final Map<String, Counter> attempts = new HashMap<>();
  private final List<Meter.Id> registered = new ArrayList<>();
  private boolean closed;

  /** Records into {@code registry} for a client of {@code clientType}. */
  public MeteredGateListener(MeterRegistry registry, ClientType clientType) {
    this(LateRegistry.of(registry), clientType);
  }

  /**
   * Records into {@code registry}, once it exists, for a client of {@code clientType}.
   *
   * @param registry where the meters go
   * @param clientType the {@code client.type} tag of the delay timer
   */
  public MeteredGateListener(LateRegistry registry, ClientType clientType) {
    this.late = Objects.requireNonNull(registry, "registry");
    this.clientType = Objects.requireNonNull(clientType, "clientType");
    late.whenReady(this::bind);
  }

  private synchronized void bind(MeterRegistry r) {
    if (closed || registry != null) {
      return;
    }
    Timer timer =
        KafkaMeters.STAGGER_DELAY
            .timer()
            .tags(KafkaMeters.STAGGER_DELAY.tags(clientType.tagValue()))
            .register(r);
    registry = r;
    hold(timer.getId());
    delay = timer;
  }

  @Override
  public void attempt(String nodeId, Outcome outcome) {
    if (registry == null) {
      // Runs after bind: actions run in the order they were handed over.
      late.whenReady(r -> count(nodeId, outcome));
    } else {
      count(nodeId, outcome);
    }
  }

  private synchronized void count(String nodeId, Outcome outcome) {
    MeterRegistry r = registry;
    if (closed || r == null) {
      return;
    }
    String node = ClientTags.nodeId(nodeId);
    attempts
        .computeIfAbsent(
            node + "/" + outcome.tagValue(),
            k -> {
              Counter c =
                  KafkaMeters.CONNECT_ATTEMPTS
                      .counter()
                      .tags(KafkaMeters.CONNECT_ATTEMPTS.tags(node, outcome.tagValue()))
                      .register(r);
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
    Timer timer = delay;
    if (timer != null) {
      timer.record(delayNanos, TimeUnit.NANOSECONDS);
    } else {
      late.whenReady(
          r -> {
            Timer bound = delay;
            if (bound != null) {
              bound.record(delayNanos, TimeUnit.NANOSECONDS);
            }
          });
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    MeterRegistry r = registry;
    if (r != null) {
      registered.forEach(id -> SharedMeters.release(r, id));
    }
    registered.clear();
    attempts.clear();
  }
}
