package io.faultline.kafka.reconnect;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.ClientType;
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
}
