package io.faultline.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigKeyCatalog;
import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.metrics.MeterCatalog;
import io.faultline.core.metrics.MeterConvention;
import io.faultline.kafka.connection.RecycleMode;
import io.faultline.kafka.connection.Recycler;
import io.faultline.kafka.reconnect.StaggerSettings;
import java.time.Duration;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class KafkaCatalogsTest {

  @Test
  void catalogsArePublishedThroughServiceLoader() {
    assertThat(ServiceLoader.load(ConfigKeyCatalog.class).stream().map(p -> p.type().getName()))
        .contains(KafkaConfigKeys.class.getName());
    assertThat(ServiceLoader.load(FindingCatalog.class).stream().map(p -> p.type().getName()))
        .contains(KafkaFindingTypes.class.getName());
    assertThat(ServiceLoader.load(MeterCatalog.class).stream().map(p -> p.type().getName()))
        .contains(KafkaMeters.class.getName());
  }

  @Test
  void everyFeatureHasItsSwitchAndEveryMeterAKnownFeature() {
    var keys = new KafkaConfigKeys().keys();
    var names = keys.stream().map(k -> k.name()).toList();
    assertThat(keys).allSatisfy(k -> assertThat(names).contains(k.feature()));
    assertThat(new KafkaMeters().meters()).allSatisfy(m -> assertThat(names).contains(m.feature()));
  }

  @Test
  void everyMeterFollowsTheNamingConvention() {
    assertThat(MeterConvention.violations(new KafkaMeters().meters())).isEmpty();
  }

  @Test
  void defaultsStaggerOnRecycleWarnAndUserSettingsApply() {
    FaultlineConfig defaults = FaultlineConfig.builder().load();
    assertThat(defaults.problems()).isEmpty();
    StaggerSettings stagger = StaggerSettings.forClient(defaults, ClientType.PRODUCER, Map.of());
    assertThat(stagger.enabled()).isTrue();
    assertThat(stagger.windowNanos()).isEqualTo(Duration.ofSeconds(3).toNanos());
    assertThat(Recycler.Policy.from(defaults).mode()).isEqualTo(RecycleMode.WARN);

    FaultlineConfig set =
        FaultlineConfig.builder()
            .sources(
                ConfigSources.of(
                    Map.of(),
                    Map.of(
                        "faultline.kafka.stagger.window", "20s",
                        "faultline.kafka.recycle", "on",
                        "faultline.kafka.recycle.samples", "0"),
                    ""))
            .load();
    StaggerSettings capped =
        StaggerSettings.forClient(set, ClientType.CONSUMER, Map.of("request.timeout.ms", 40_000));
    assertThat(capped.windowNanos()).isEqualTo(Duration.ofSeconds(10).toNanos());
    Recycler.Policy policy = Recycler.Policy.from(set);
    assertThat(policy.mode()).isEqualTo(RecycleMode.ON);
    assertThat(policy.samples()).isEqualTo(1); // 0 clamped: one sample at least
  }

  @Test
  void recycleModesParseAndABadValueTurnsRecyclingOff() {
    assertThat(recycleModeFor("off")).isEqualTo(RecycleMode.OFF);
    assertThat(recycleModeFor("WARN")).isEqualTo(RecycleMode.WARN);
    assertThat(recycleModeFor("on")).isEqualTo(RecycleMode.ON);
    // "true" was the old boolean form: rejected, so the feature is off rather than guessed at.
    assertThat(recycleModeFor("true")).isEqualTo(RecycleMode.OFF);
  }

  private static RecycleMode recycleModeFor(String value) {
    FaultlineConfig config =
        FaultlineConfig.builder()
            .sources(ConfigSources.of(Map.of(), Map.of("faultline.kafka.recycle", value), ""))
            .load();
    return Recycler.Policy.from(config).mode();
  }
}
