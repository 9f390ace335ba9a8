package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.reconnect.StaggerSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientTimeoutConfigsTest {

  private final ClientTimeoutConfigs configs = new ClientTimeoutConfigs();

  @Test
  void keepsOnlyTheTimeoutsOfEachClientByIdentity() {
    Object producer = new Object();
    Object consumer = new Object();
    Map<String, Object> producerValues = new HashMap<>();
    producerValues.put("request.timeout.ms", 2_000);
    producerValues.put("delivery.timeout.ms", 4_000);
    producerValues.put("bootstrap.servers", "b:9092");
    configs.remember(producer, producerValues);
    configs.remember(consumer, Map.of("max.poll.interval.ms", 8_000, "request.timeout.ms", 30_000));

    assertThat(configs.of(producer))
        .containsOnly(
            Map.entry("request.timeout.ms", 2_000), Map.entry("delivery.timeout.ms", 4_000));
    assertThat(configs.of(consumer))
        .containsOnly(
            Map.entry("max.poll.interval.ms", 8_000), Map.entry("request.timeout.ms", 30_000));
    assertThat(configs.of(new Object())).isEmpty();
    assertThat(configs.of(null)).isEmpty();
  }

  @Test
  void ignoresWhatIsNotAConfiguration() {
    Object client = new Object();
    configs.remember(client, "request.timeout.ms=10");
    configs.remember(null, Map.of("request.timeout.ms", 10));
    assertThat(configs.of(client)).isEmpty();
  }

  @Test
  void theRememberedTimeoutsCapTheWindowOfThatClientOnly() {
    Object shortTimeouts = new Object();
    configs.remember(
        shortTimeouts, Map.of("request.timeout.ms", 2_000, "delivery.timeout.ms", 1_200));
    Duration window = Duration.ofSeconds(3);

    StaggerSettings capped =
        StaggerSettings.of(
            true, window, Duration.ZERO, 0.25, ClientType.PRODUCER, configs.of(shortTimeouts));
    StaggerSettings defaults =
        StaggerSettings.of(
            true, window, Duration.ZERO, 0.25, ClientType.PRODUCER, configs.of(new Object()));

    // 0.25 x the shortest (delivery.timeout.ms 1200 ms) = 300 ms
    assertThat(capped.windowNanos()).isEqualTo(Duration.ofMillis(300).toNanos());
    // Kafka's defaults: 0.25 x 30 s = 7.5 s, above the 3 s window
    assertThat(defaults.windowNanos()).isEqualTo(window.toNanos());
  }
}
