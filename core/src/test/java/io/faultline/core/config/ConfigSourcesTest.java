package io.faultline.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConfigSourcesTest {

  private static final String BEFORE = "faultline.net.churn.max-connects";
  private static final String AFTER = "faultline.export.tags";

  @AfterEach
  void clear() {
    System.clearProperty(BEFORE);
    System.clearProperty(AFTER);
  }

  private static FaultlineConfig load(ConfigSources sources) {
    return FaultlineConfig.builder()
        .sources(sources)
        .catalogsFromClassPath(false)
        .keys(TestKeys.ALL)
        .load();
  }

  @Test
  void theProcessAtStartKeepsThePropertiesAsTheyWereWhenTaken() {
    System.setProperty(BEFORE, "7");
    ConfigSources atStart = ConfigSources.ofProcessAtStart("kafka.tcp.interval=4s");
    System.setProperty(AFTER, "set-by-main");
    System.setProperty(BEFORE, "8");

    FaultlineConfig config = load(atStart);

    assertThat(config.get(TestKeys.CHURN_LIMIT)).isEqualTo(7);
    assertThat(config.get(TestKeys.TAGS)).as("set after the copy").isEmpty();
    assertThat(config.get(TestKeys.TCP_INTERVAL)).hasSeconds(4);
  }

  @Test
  void theLiveProcessSeesPropertiesSetLater() {
    ConfigSources live = ConfigSources.ofProcess("");
    System.setProperty(AFTER, "set-by-main");

    assertThat(load(live).get(TestKeys.TAGS)).isEqualTo("set-by-main");
  }
}
