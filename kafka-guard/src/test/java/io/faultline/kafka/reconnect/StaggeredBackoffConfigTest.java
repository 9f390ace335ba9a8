package io.faultline.kafka.reconnect;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StaggeredBackoffConfigTest {

  @Test
  void eachInstanceDrawsItsOwnMaximumWithinTheBounds() {
    Random random = new Random(7);
    StaggeredBackoffConfig config =
        StaggeredBackoffConfig.between(Duration.ofSeconds(1), Duration.ofSeconds(5))
            .withRandom(random::nextDouble);
    Set<Object> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      Map<String, Object> out = config.apply(Map.of("bootstrap.servers", "b:9092"));
      long max = (Long) out.get("reconnect.backoff.max.ms");
      assertThat(max).isBetween(1_000L, 5_000L);
      assertThat(out).containsEntry("reconnect.backoff.ms", 50L);
      assertThat(out).containsEntry("bootstrap.servers", "b:9092");
      seen.add(max);
    }
    assertThat(seen.size()).isGreaterThan(150);
  }

  @Test
  void avoidsTheNoJitterTrapWhenOnlyTheStartIsSet() {
    StaggeredBackoffConfig config =
        StaggeredBackoffConfig.between(Duration.ofMillis(100), Duration.ofMillis(200))
            .withRandom(() -> 0);
    Map<String, Object> out = config.apply(Map.of("reconnect.backoff.ms", "500"));
    assertThat(out).containsEntry("reconnect.backoff.ms", 500L);
    assertThat((Long) out.get("reconnect.backoff.max.ms")).isEqualTo(1_000L);
  }

  @Test
  void keepsAUserMaximumThatAlreadyHasRoomForJitter() {
    Map<String, Object> out =
        StaggeredBackoffConfig.defaults()
            .apply(Map.of("reconnect.backoff.ms", 100, "reconnect.backoff.max.ms", 8_000));
    assertThat(out).containsEntry("reconnect.backoff.max.ms", 8_000L);
  }

  @Test
  void worksOnProperties() {
    Properties props = new Properties();
    props.put("client.id", "c1");
    Properties out = StaggeredBackoffConfig.defaults().withRandom(() -> 0.5).apply(props);
    assertThat(out).containsEntry("client.id", "c1").containsKey("reconnect.backoff.max.ms");
    assertThat(props).doesNotContainKey("reconnect.backoff.max.ms");
  }

  @Test
  void swappedBoundsAreClamped() {
    Map<String, Object> out =
        StaggeredBackoffConfig.between(Duration.ofSeconds(3), Duration.ofSeconds(1))
            .withRandom(() -> 0.99)
            .apply(Map.of());
    assertThat(out).containsEntry("reconnect.backoff.max.ms", 3_000L);
  }
}
