package io.faultline.core.finding;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoreFindingTypesTest {

  @Test
  void eachConfigurationErrorBecomesAFindingAboutItsKeyButWarningsDoNot() {
    FaultlineConfig config =
        FaultlineConfig.builder()
            .sources(
                ConfigSources.of(
                    Map.of(), Map.of(), "findings.log-interval=soon,findings.log-intervl=1m"))
            .load();

    assertThat(CoreFindingTypes.fromConfig(config))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.type()).isEqualTo(CoreFindingTypes.CONFIGURATION_REJECTED);
              assertThat(f.subject()).isEqualTo("findings.log-interval");
              assertThat(f.message())
                  .contains("(a value of 4 characters starting with a letter) is not valid")
                  .doesNotContain("soon");
              assertThat(f.evidence()).containsEntry("source", "agent argument");
            });
  }

  @Test
  void theCoreCatalogIsFoundOnTheClassPath() {
    assertThat(FindingCatalogs.fromClassPath()).contains(CoreFindingTypes.CONFIGURATION_REJECTED);
  }
}
