package io.faultline.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class OwnedMetersTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private static Counter counter(SimpleMeterRegistry registry, String db) {
    return Counter.builder("faultline.test.things").tag("db", db).register(registry);
  }

  @Test
  void keepsOnlyMetersNewToTheRegistryAndRemovesExactlyThose() {
    OwnedMeters first = new OwnedMeters("first");
    OwnedMeters second = new OwnedMeters("second");
    first.register(registry, "faultline.test.things", r -> counter(registry, "orders"));

    second.register(registry, "faultline.test.things", r -> counter(registry, "orders"));
    second.register(registry, "faultline.test.things", r -> counter(registry, "billing"));

    assertThat(first.collided()).isFalse();
    assertThat(second.collided()).isTrue();
    second.removeAll();
    assertThat(registry.getMeters())
        .singleElement()
        .satisfies(m -> assertThat(m.getId().getTag("db")).isEqualTo("orders"));
    first.removeAll();
    assertThat(registry.getMeters()).isEmpty();
  }
}
