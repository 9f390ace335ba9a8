package io.faultline.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.config.ConfigProblem.Level;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultlineConfigTest {

  @TempDir Path dir;

  private static FaultlineConfig load(
      Map<String, String> env, Map<String, String> props, String agentArgs) {
    return FaultlineConfig.builder()
        .sources(ConfigSources.of(env, props, agentArgs))
        .keys(TestKeys.ALL)
        .load();
  }

  private static FaultlineConfig agent(String agentArgs) {
    return load(Map.of(), Map.of(), agentArgs);
  }

  @Test
  void unsetKeysHaveTheirDefaultsAndNoProblems() {
    FaultlineConfig config = agent("");

    assertThat(config.get(TestKeys.TCP_INTERVAL)).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.get(CoreConfigKeys.FINDINGS_LOG_INTERVAL)).isEqualTo(Duration.ofMinutes(10));
    assertThat(config.problems()).isEmpty();
    assertThat(config.isFeatureEnabled("net.churn")).isTrue();
    assertThat(config.effective())
        .contains(new EffectiveSetting("kafka.tcp.interval", "30s", "default", "kafka.tcp"));
  }

  @Test
  void laterSourcesWinOverEarlierOnes() throws IOException {
    Path file = dir.resolve("faultline.properties");
    Files.writeString(
        file, "kafka.tcp.interval=1s\nkafka.tcp.buffer=1MiB\nnet.churn.max-connects=7\n");

    FaultlineConfig config =
        load(
            Map.of(
                "FAULTLINE_CONFIG", file.toString(),
                "FAULTLINE_KAFKA_TCP_INTERVAL", "2s",
                "FAULTLINE_NET_CHURN_MAX__CONNECTS", "8"),
            Map.of("faultline.kafka.tcp.interval", "3s", "faultline.net.churn.max-connects", "9"),
            "kafka.tcp.interval=4s");

    assertThat(config.problems()).isEmpty();
    assertThat(config.get(TestKeys.TCP_INTERVAL)).isEqualTo(Duration.ofSeconds(4));
    assertThat(config.get(TestKeys.CHURN_LIMIT)).isEqualTo(9);
    assertThat(config.get(TestKeys.BUFFER)).isEqualTo(1L << 20);
    assertThat(config.effective())
        .contains(
            new EffectiveSetting("kafka.tcp.interval", "4s", "agent argument", "kafka.tcp"),
            new EffectiveSetting(
                "net.churn.max-connects",
                "9",
                "system property faultline.net.churn.max-connects",
                "net.churn"),
            new EffectiveSetting("kafka.tcp.buffer", "1MiB", "config file " + file, "kafka.tcp"));
  }

  @Test
  void environmentVariablesMapUnderscoreToDotAndDoubleUnderscoreToDash() {
    FaultlineConfig config = load(Map.of("FAULTLINE_NET_CHURN_MAX__CONNECTS", "5"), Map.of(), "");

    assertThat(config.get(TestKeys.CHURN_LIMIT)).isEqualTo(5);
    assertThat(config.effective())
        .contains(
            new EffectiveSetting(
                "net.churn.max-connects",
                "5",
                "environment variable FAULTLINE_NET_CHURN_MAX__CONNECTS",
                "net.churn"));
    assertThat(EnvironmentNames.of("findings.log-interval"))
        .isEqualTo("FAULTLINE_FINDINGS_LOG__INTERVAL");
    assertThat(EnvironmentNames.toKey(EnvironmentNames.of("a.b-c.d"))).isEqualTo("a.b-c.d");
    assertThat(EnvironmentNames.toKey("PATH")).isNull();
  }

  @Test
  void theConfigFilePathMayComeFromTheAgentArgument() throws IOException {
    Path file = dir.resolve("f.properties");
    Files.writeString(file, "export.tags=from-file\n");

    FaultlineConfig config = agent("config=" + file);

    assertThat(config.get(TestKeys.TAGS)).isEqualTo("from-file");
  }

  @Test
  void configInsideTheConfigFileIsIgnoredWithAWarning() throws IOException {
    Path file = dir.resolve("f.properties");
    Files.writeString(file, "config=/elsewhere\n");

    FaultlineConfig config = agent("config=" + file);

    assertThat(config.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.severity()).isEqualTo(Level.WARNING);
              assertThat(p.message()).contains("has no effect").contains("FAULTLINE_CONFIG");
            });
  }

  @Test
  void aMissingConfigFileIsAnErrorAndTheOtherSourcesStillApply() {
    FaultlineConfig config =
        load(
            Map.of("FAULTLINE_CONFIG", dir.resolve("missing.properties").toString()),
            Map.of(),
            "kafka.tcp.interval=5s");

    assertThat(config.get(TestKeys.TCP_INTERVAL)).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.severity()).isEqualTo(Level.ERROR);
              assertThat(p.key()).isEqualTo("config");
              assertThat(p.source()).isEqualTo("environment variable FAULTLINE_CONFIG");
              assertThat(p.message()).contains("missing.properties").contains("does not exist");
            });
  }

  @Test
  void anUnreadableConfigFileIsAnError() throws IOException {
    Path file = dir.resolve("latin1.properties");
    Files.write(file, "export.tags=caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

    FaultlineConfig config = agent("config=" + file);

    assertThat(config.problems())
        .singleElement()
        .satisfies(p -> assertThat(p.message()).startsWith("cannot read config file"));
    assertThat(config.get(TestKeys.TAGS)).isEmpty();
  }

  @Test
  void aBadValueIsAnErrorTheKeyKeepsItsDefaultAndItsFeatureIsOff() {
    FaultlineConfig config = agent("net.churn.window=-5s,kafka.tcp.interval=10s");

    assertThat(config.get(TestKeys.CHURN_WINDOW)).isEqualTo(Duration.ofMinutes(1));
    assertThat(config.isFeatureEnabled("net.churn")).isFalse();
    assertThat(config.isFeatureEnabled("kafka.tcp")).isTrue();
    assertThat(config.get(TestKeys.TCP_INTERVAL)).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.severity()).isEqualTo(Level.ERROR);
              assertThat(p.key()).isEqualTo("net.churn.window");
              assertThat(p.source()).isEqualTo("agent argument");
              assertThat(p.message())
                  .contains("(a value of 3 characters starting with a sign)")
                  .doesNotContain("-5s")
                  .contains(ValueType.DURATION_TYPE.expected())
                  .contains("default 1m")
                  .contains("feature 'net.churn' off");
            });
    assertThat(config.effective())
        .contains(
            new EffectiveSetting(
                "net.churn.window",
                "1m",
                "default (rejected a value of 3 characters starting with a sign)",
                "net.churn"));
  }

  @Test
  void theFeatureSwitchIsTheBooleanKeyNamedLikeTheFeature() {
    assertThat(agent("net.churn=off").isFeatureEnabled("net.churn")).isFalse();
    assertThat(agent("net.churn=on").isFeatureEnabled("net.churn")).isTrue();
    assertThat(agent("net.churn=maybe").isFeatureEnabled("net.churn")).isFalse();
    // No switch declared: on unless a value was rejected.
    assertThat(agent("").isFeatureEnabled("kafka.tcp")).isTrue();
    assertThat(agent("").isFeatureEnabled("no.such.feature")).isTrue();
    assertThat(agent("net.churn=false").features())
        .containsEntry("net.churn", false)
        .containsEntry("kafka.tcp", true);
  }

  @Test
  void anUnknownKeyIsAWarningNamingTheClosestKeyInTheSourcesOwnSpelling() {
    FaultlineConfig config =
        load(
            Map.of("FAULTLINE_KAFKA_TCP_INTERVL", "5s"),
            Map.of("faultline.kafka.tcp.bufer", "1KiB"),
            "kafka.tcp.intreval=5s,completely.unrelated.thing=1");

    assertThat(config.problems()).extracting(ConfigProblem::severity).containsOnly(Level.WARNING);
    assertThat(config.problems())
        .extracting(ConfigProblem::message)
        .containsExactly(
            "unknown key 'FAULTLINE_KAFKA_TCP_INTERVL' ignored; did you mean"
                + " FAULTLINE_KAFKA_TCP_INTERVAL?",
            "unknown key 'faultline.kafka.tcp.bufer' ignored; did you mean"
                + " -Dfaultline.kafka.tcp.buffer?",
            "unknown key 'kafka.tcp.intreval' ignored; did you mean kafka.tcp.interval?",
            "unknown key 'completely.unrelated.thing' ignored; see docs/configuration.md for the"
                + " keys");
    assertThat(config.isFeatureEnabled("kafka.tcp")).isTrue();
  }

  @Test
  void aPrefixedKeyWhereNoPrefixBelongsGetsItsOwnHint() {
    assertThat(agent("faultline.kafka.tcp.interval=5s").problems())
        .extracting(ConfigProblem::message)
        .containsExactly(
            "unknown key 'faultline.kafka.tcp.interval' ignored; did you mean kafka.tcp.interval"
                + " (no faultline. prefix here)?");
  }

  @Test
  void aKeyReadButNotDeclaredReturnsItsDefault() {
    ConfigKey<Integer> undeclared = ConfigKey.integer("not.declared", 3, "x", "d");

    assertThat(agent("").get(undeclared)).isEqualTo(3);
  }

  @Test
  void keysFromTheClassPathCatalogsAreKnownWithoutBeingPassed() {
    FaultlineConfig config =
        FaultlineConfig.builder()
            .sources(ConfigSources.of(Map.of(), Map.of(), "findings.log-interval=1m"))
            .load();

    assertThat(config.problems()).isEmpty();
    assertThat(config.get(CoreConfigKeys.FINDINGS_LOG_INTERVAL)).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void twoDifferentDeclarationsOfOneKeyAreAProblemAndTheFirstWins() {
    FaultlineConfig config =
        FaultlineConfig.builder()
            .keys(TestKeys.TCP_INTERVAL, ConfigKey.integer("kafka.tcp.interval", 1, "x", "d"))
            .load();

    assertThat(config.get(TestKeys.TCP_INTERVAL)).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.problems())
        .singleElement()
        .satisfies(p -> assertThat(p.message()).contains("declared twice"));
  }

  @Test
  void aNonBooleanKeyNamedLikeItsFeatureIsRejectedAsADeclarationBug() {
    FaultlineConfig config =
        FaultlineConfig.builder().keys(ConfigKey.integer("odd", 1, "odd", "d")).load();

    assertThat(config.problems())
        .singleElement()
        .satisfies(p -> assertThat(p.message()).contains("must be boolean"));
  }

  enum Mode {
    OFF,
    WARN,
    ON
  }

  @Test
  void anEnumSwitchWithAnOffValueTurnsItsFeatureOffOnlyWhenOff() {
    ConfigKey<Mode> mode = ConfigKey.enumKey("modal", Mode.class, Mode.WARN, "modal", "d");
    ConfigKey<Integer> other = ConfigKey.integer("modal.samples", 3, "modal", "d");
    java.util.function.Function<String, FaultlineConfig> load =
        args ->
            FaultlineConfig.builder()
                .sources(ConfigSources.of(Map.of(), Map.of(), args))
                .keys(mode, other)
                .load();

    assertThat(load.apply("").problems()).isEmpty();
    assertThat(load.apply("").isFeatureEnabled("modal")).isTrue();
    assertThat(load.apply("modal=on").isFeatureEnabled("modal")).isTrue();
    assertThat(load.apply("modal=off").isFeatureEnabled("modal")).isFalse();
    assertThat(load.apply("modal=sometimes").isFeatureEnabled("modal")).isFalse();
    assertThat(load.apply("modal.samples=x").isFeatureEnabled("modal")).isFalse();
  }

  @Test
  void effectiveAsTextListsEveryKeyWithItsSource() {
    String text = agent("kafka.tcp.interval=5s").effectiveAsText();

    assertThat(text)
        .containsPattern("kafka\\.tcp\\.interval = 5s +\\(agent argument\\)\n")
        .containsPattern("net\\.churn = true +\\(default\\)\n");
  }

  @Test
  void aSecretKeysValueIsReadButNeverShown() {
    ConfigKey<String> token = ConfigKey.secret("export.token", "export", "token");
    FaultlineConfig config =
        FaultlineConfig.builder()
            .sources(ConfigSources.of(Map.of(), Map.of(), "export.token=s3cret-value"))
            .keys(List.of(token))
            .load();

    assertThat(config.get(token)).isEqualTo("s3cret-value");
    assertThat(config.effectiveAsText()).contains("export.token = ***").doesNotContain("s3cret");
    assertThat(config.effective())
        .contains(new EffectiveSetting("export.token", "***", "agent argument", "export"));
    assertThat(token.defaultText()).isEmpty();
  }

  @Test
  void aSecretPastedIntoTheWrongKeyIsNotEchoedInTheProblemOrTheEffectiveSettings() {
    FaultlineConfig config = agent("kafka.tcp.interval=ghp_Secret123,kafka.tcp.buffer=#x");

    assertThat(config.problems())
        .hasSize(2)
        .allSatisfy(p -> assertThat(p.toLine()).doesNotContain("ghp_", "Secret123"));
    assertThat(config.problems())
        .anySatisfy(
            p ->
                assertThat(p.toLine())
                    .startsWith("faultline: ERROR kafka.tcp.interval (agent argument)")
                    .contains("(a value of 13 characters starting with a letter) is not valid"))
        .anySatisfy(
            p ->
                assertThat(p.toLine())
                    .startsWith("faultline: ERROR kafka.tcp.buffer (agent argument)")
                    .contains("(a value of 2 characters starting with a symbol) is not valid"));
    assertThat(config.effectiveAsText()).doesNotContain("Secret123");
  }

  @Test
  void theRealProcessSourcesCanBeRead() {
    FaultlineConfig config = FaultlineConfig.load("findings.log-interval=2m");

    assertThat(config.get(CoreConfigKeys.FINDINGS_LOG_INTERVAL)).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void theBuilderRefusesNullsNamingTheField() {
    FaultlineConfig.Builder b = FaultlineConfig.builder();
    assertThatThrownBy(() -> b.sources(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("sources");
    assertThatThrownBy(() -> b.keys((Collection<ConfigKey<?>>) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("keys");
    assertThatThrownBy(() -> b.keys((ConfigKey<?>[]) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("keys");
    assertThatThrownBy(() -> b.keys(Arrays.asList(TestKeys.CHURN, null)))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("keys: a key is null");
    // Nothing of the refused call was kept.
    FaultlineConfig config = b.catalogsFromClassPath(false).load();
    assertThat(config.keys()).doesNotContain(TestKeys.CHURN);
  }
}
