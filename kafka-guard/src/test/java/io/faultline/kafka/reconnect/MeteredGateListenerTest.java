package io.faultline.kafka.reconnect;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.QueuedRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MeteredGateListenerTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private double attempts() {
    return registry
        .get("faultline.kafka.connect.attempts")
        .tags("node.id", "1", "outcome", "immediate")
        .counter()
        .count();
  }

  @Test
  void closingOneOfTwoListenersOfATypeKeepsTheMetersTheOtherRecordsInto() {
    MeteredGateListener first = new MeteredGateListener(registry, ClientType.PRODUCER);
    MeteredGateListener second = new MeteredGateListener(registry, ClientType.PRODUCER);
    first.attempt("1", GateListener.Outcome.IMMEDIATE);
    second.attempt("1", GateListener.Outcome.IMMEDIATE);
    assertThat(attempts()).isEqualTo(2.0);

    first.close();
    second.attempt("1", GateListener.Outcome.IMMEDIATE);
    second.delayed("1", Duration.ofMillis(5).toNanos());

    assertThat(attempts()).isEqualTo(3.0);
    assertThat(registry.get("faultline.kafka.stagger.delay").timer().count()).isEqualTo(1);

    second.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void closeRemovesOnlyTheMetersOfItsOwnClientType() {
    MeteredGateListener producer = new MeteredGateListener(registry, ClientType.PRODUCER);
    MeteredGateListener consumer = new MeteredGateListener(registry, ClientType.CONSUMER);

    producer.close();

    assertThat(registry.getMeters())
        .singleElement()
        .satisfies(m -> assertThat(m.getId().getTag("client.type")).isEqualTo("consumer"));
    consumer.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void decisionsBeforeTheRegistryExistsAreRecordedOnceItDoes() {
    QueuedRegistry late = new QueuedRegistry();
    MeteredGateListener listener = new MeteredGateListener(late, ClientType.PRODUCER);
    listener.attempt("1", GateListener.Outcome.IMMEDIATE);
    listener.attempt("1", GateListener.Outcome.IMMEDIATE);
    listener.delayed("1", Duration.ofMillis(40).toNanos());

    late.open(registry);

    assertThat(attempts()).isEqualTo(2.0);
    var delay = registry.get("faultline.kafka.stagger.delay").timer();
    assertThat(delay.count()).isEqualTo(1);
    assertThat(delay.max(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(40.0);

    listener.attempt("1", GateListener.Outcome.IMMEDIATE);
    assertThat(attempts()).as("at once from now on").isEqualTo(3.0);
    listener.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void aListenerClosedBeforeTheRegistryExistsRegistersNothing() {
    QueuedRegistry late = new QueuedRegistry();
    MeteredGateListener listener = new MeteredGateListener(late, ClientType.CONSUMER);
    listener.attempt("1", GateListener.Outcome.IMMEDIATE);
    listener.delayed("1", 1_000_000);
    listener.close();

    late.open(registry);

    assertThat(registry.getMeters()).isEmpty();
  }
}
