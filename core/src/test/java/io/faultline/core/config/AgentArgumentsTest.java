package io.faultline.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigProblem.Level;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentArgumentsTest {

  private static FaultlineConfig agent(String agentArgs) {
    return FaultlineConfig.builder()
        .sources(ConfigSources.of(Map.of(), Map.of(), agentArgs))
        .keys(TestKeys.ALL)
        .load();
  }

  @Test
  void aQuotedValueMayContainCommasQuotesAndBackslashes() {
    FaultlineConfig config = agent(" export.tags = \"a,b \\\"c\\\" \\\\d C:\\e\" , net.churn=off");

    assertThat(config.problems()).isEmpty();
    assertThat(config.get(TestKeys.TAGS)).isEqualTo("a,b \"c\" \\d C:\\e");
    assertThat(config.isFeatureEnabled("net.churn")).isFalse();
  }

  @Test
  void onlyTheFirstEqualsSeparatesKeyFromValue() {
    assertThat(agent("export.tags=a=b").get(TestKeys.TAGS)).isEqualTo("a=b");
  }

  @Test
  void aRepeatedKeyKeepsItsLastValueWithAWarning() {
    FaultlineConfig config = agent("export.tags=one,export.tags=two");

    assertThat(config.get(TestKeys.TAGS)).isEqualTo("two");
    assertThat(config.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.severity()).isEqualTo(Level.WARNING);
              assertThat(p.key()).isEqualTo("export.tags");
              assertThat(p.message())
                  .contains(
                      "the last value (a value of 3 characters starting with a letter) wins over")
                  .doesNotContain("two");
            });
  }

  @Test
  void malformedFragmentsAreProblemsAndTheRestStillApplies() {
    FaultlineConfig config = agent("=,==x,,net.churn,kafka.tcp.interval=5s,export.tags=\"open");

    assertThat(config.get(TestKeys.TCP_INTERVAL)).hasSeconds(5);
    assertThat(config.problems())
        .extracting(ConfigProblem::severity, ConfigProblem::source, ConfigProblem::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                Level.ERROR,
                "agent argument, fragment 1",
                "fragment '=' has no key; write key=value"),
            org.assertj.core.groups.Tuple.tuple(
                Level.ERROR,
                "agent argument, fragment 2",
                "fragment '==x' has no key; write key=value"),
            org.assertj.core.groups.Tuple.tuple(
                Level.WARNING,
                "agent argument, fragment 3",
                "empty fragment ignored; separate settings with a single comma:"
                    + " key=value,key=value"),
            org.assertj.core.groups.Tuple.tuple(
                Level.ERROR,
                "agent argument, fragment 4",
                "'net.churn' has no '='; write key=value (e.g. net.churn=true)"),
            org.assertj.core.groups.Tuple.tuple(
                Level.ERROR,
                "agent argument, fragment 6",
                "quoted value has no closing '\"'; close the quote, and write a quote inside a"
                    + " value as \\\""));
  }

  @Test
  void textAfterAClosingQuoteIsAProblem() {
    FaultlineConfig config = agent("export.tags=\"a\"b,kafka.tcp.interval=1s");

    assertThat(config.get(TestKeys.TAGS)).isEmpty();
    assertThat(config.get(TestKeys.TCP_INTERVAL)).hasSeconds(1);
    assertThat(config.problems())
        .singleElement()
        .satisfies(p -> assertThat(p.message()).contains("'b' after the closing quote"));
  }

  @Test
  void hugeAndControlCharacterValuesAreEchoedShortAndOnOneLine() {
    String huge = "9".repeat(1 << 20) + "s";
    FaultlineConfig config = agent("kafka.tcp.interval=" + huge + ",export.tags=a\nb");

    assertThat(config.get(TestKeys.TCP_INTERVAL)).hasSeconds(30);
    assertThat(config.get(TestKeys.TAGS)).isEqualTo("a\nb");
    ConfigProblem problem = config.problems().get(0);
    assertThat(problem.toLine())
        .startsWith("faultline: ERROR kafka.tcp.interval (agent argument): the value given")
        .contains("(a value of 1048577 characters starting with a digit) is not valid")
        .doesNotContain("999")
        .hasSizeLessThan(400);
    assertThat(agent("export.tags=\"\u0000\u2028\",x\ny=1").problems())
        .allSatisfy(p -> assertThat(p.toLine()).doesNotContain("\n", "\u0000", "\u2028"));
  }
}
