package io.faultline.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.jooq.JooqConfigKeys;
import io.faultline.jooq.NestingPolicy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class SpringEnvironmentConfigTest {

  private static FaultlineConfig load(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    return SpringEnvironmentConfig.load(environment);
  }

  @Test
  void faultlinePropertiesSetTheCatalogsKeys() {
    FaultlineConfig config =
        load(
            Map.of(
                "faultline.jooq.nesting", "flatten",
                "faultline.jooq.statement-timeout", "5ms",
                "faultline.jooq.lock-timeout", "2s"));
    assertThat(config.get(JooqConfigKeys.NESTING)).isEqualTo(NestingPolicy.FLATTEN);
    assertThat(config.get(JooqConfigKeys.STATEMENT_TIMEOUT)).isEqualTo(Duration.ofMillis(5));
    assertThat(config.get(JooqConfigKeys.LOCK_TIMEOUT)).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.isFeatureEnabled(JooqConfigKeys.GUARD)).isTrue();
    assertThat(config.problems()).isEmpty();
  }

  @Test
  void guardFalseTurnsTheFeatureOff() {
    assertThat(load(Map.of("faultline.jooq.guard", "false")).isFeatureEnabled(JooqConfigKeys.GUARD))
        .isFalse();
  }

  @Test
  void aDurationWithoutUnitIsAProblemAndTurnsTheGuardOff() {
    FaultlineConfig config = load(Map.of("faultline.jooq.lock-timeout", "5"));
    assertThat(config.problems()).extracting(p -> p.key()).contains("jooq.lock-timeout");
    assertThat(config.isFeatureEnabled(JooqConfigKeys.GUARD)).isFalse();
    assertThat(config.get(JooqConfigKeys.LOCK_TIMEOUT)).isEqualTo(Duration.ZERO);
  }

  @Test
  void unsetKeysKeepTheirDefaults() {
    FaultlineConfig config = load(Map.of());
    assertThat(config.get(JooqConfigKeys.NESTING)).isEqualTo(JooqConfigKeys.NESTING.defaultValue());
    assertThat(config.isFeatureEnabled(JooqConfigKeys.GUARD)).isTrue();
  }
}
