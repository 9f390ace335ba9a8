package io.faultline.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DurationListTest {

  @Test
  void parsesAscendingDurationsWithUnitsAndWritesThemBack() {
    List<Duration> parsed = ValueType.DURATIONS.parse(" 1ms, 250ms ,1s,10s");
    assertThat(parsed)
        .containsExactly(
            Duration.ofMillis(1),
            Duration.ofMillis(250),
            Duration.ofSeconds(1),
            Duration.ofSeconds(10));
    assertThat(ValueType.DURATIONS.format(parsed)).isEqualTo("1ms,250ms,1s,10s");
  }

  @Test
  void refusesUnitlessZeroEmptyOrUnorderedEntries() {
    for (String bad : new String[] {"1,2", "0ms,1s", "1ms,,1s", "10ms,5ms", "1s,1000ms", ""}) {
      assertThatThrownBy(() -> ValueType.DURATIONS.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void aQuotedListInTheAgentArgumentIsOneValue() {
    ConfigKey<List<Duration>> key =
        ConfigKey.durations("x.buckets", List.of(Duration.ofSeconds(1)), "x", "Test key.");
    FaultlineConfig config =
        FaultlineConfig.builder()
            .sources(ConfigSources.of(Map.of(), Map.of(), "x.buckets=\"5ms,50ms\""))
            .keys(key)
            .load();
    assertThat(config.get(key)).containsExactly(Duration.ofMillis(5), Duration.ofMillis(50));
    assertThat(config.problems()).isEmpty();
  }
}
