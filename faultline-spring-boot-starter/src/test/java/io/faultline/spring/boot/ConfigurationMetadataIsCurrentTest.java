package io.faultline.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.FaultlineConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The shipped configuration metadata is the one generated from the key catalog. Run with {@code
 * -Dfaultline.docs.write=true} to rewrite it after a key changes.
 */
class ConfigurationMetadataIsCurrentTest {

  private static final Path METADATA =
      Path.of("src/main/resources/META-INF/spring-configuration-metadata.json");

  @Test
  void theShippedMetadataIsGeneratedFromTheKeyCatalog() throws Exception {
    String expected = ConfigurationMetadata.json(StarterKeys.keys());
    if (Boolean.getBoolean("faultline.docs.write")) {
      Files.writeString(METADATA, expected, StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(METADATA, StandardCharsets.UTF_8))
        .as(
            "%s is stale: rerun this test with -Dfaultline.docs.write=true on"
                + " faultline-spring-boot-starter",
            METADATA)
        .isEqualTo(expected);
  }

  @Test
  void everyStarterKeyIsOneTheCatalogsDeclare() {
    Set<String> declared =
        FaultlineConfig.defaults().keys().stream().map(ConfigKey::name).collect(Collectors.toSet());
    assertThat(StarterKeys.keys())
        .extracting(ConfigKey::name)
        .isNotEmpty()
        .allMatch(declared::contains)
        .contains("jooq.guard", "jooq.nesting", "jooq.statement-timeout", "jooq.lock-timeout");
  }
}
