package io.faultline.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Loading must never throw into the host application, whatever the agent argument, environment or
 * system properties hold. Generates garbage from a fixed seed (so a failure reproduces) out of the
 * pieces most likely to break a parser: separators, quotes, backslashes, key-like words, unicode,
 * control characters, huge numbers and long runs.
 */
class ConfigFuzzTest {

  private static final String[] PIECES = {
    "=",
    ",",
    "\"",
    "\\",
    "\\\"",
    " ",
    "",
    "==",
    ",,",
    "kafka.tcp.interval",
    "net.churn",
    "export.tags",
    "config",
    "-5s",
    "5s",
    "99999999999999999999d",
    "1GiB",
    "9223372036854775807KiB",
    "on",
    "NaN",
    "\u0000",
    "\n",
    "\u2028",
    "\uD800",
    "\uDFFF",
    "\uD83D\uDE00",
    "\u00e9\u4e2d\u0627",
    "faultline.",
    "FAULTLINE_",
    "_",
    "__",
    "-",
    "/dev/null",
    "/proc/self/mem",
    "%s",
    "${x}"
  };

  @Test
  void loadingNeverThrowsOnGarbageAgentArguments() {
    SplittableRandom random = new SplittableRandom(20240611L);
    for (int i = 0; i < 2000; i++) {
      String args = garbage(random);
      assertThatCode(
              () -> {
                FaultlineConfig config = load(args, Map.of(), Map.of());
                config.problems().forEach(ConfigProblem::toLine);
                config.effectiveAsText();
                assertThat(config.problems().size()).isLessThanOrEqualTo(Problems.LIMIT + 1);
              })
          .as("agent argument #%d: %s", i, args)
          .doesNotThrowAnyException();
    }
  }

  @Test
  void loadingNeverThrowsOnGarbageEnvironmentAndSystemProperties() {
    SplittableRandom random = new SplittableRandom(42L);
    for (int i = 0; i < 1000; i++) {
      Map<String, String> env = new HashMap<>();
      env.put("FAULTLINE_CONFIG", garbage(random));
      env.put("FAULTLINE_" + garbage(random), garbage(random));
      Map<String, String> props = new HashMap<>();
      props.put("faultline.config", "");
      props.put("faultline." + garbage(random), garbage(random));
      String args = garbage(random);
      assertThatCode(() -> load(args, env, props).problems().forEach(ConfigProblem::toLine))
          .as("case #%d", i)
          .doesNotThrowAnyException();
    }
  }

  @Test
  void aMegabyteOfSeparatorsProducesABoundedListOfProblems() {
    FaultlineConfig config = load(",=".repeat(1 << 19), Map.of(), Map.of());

    assertThat(config.problems()).hasSize(Problems.LIMIT + 1);
    assertThat(config.problems().get(Problems.LIMIT).message()).contains("more configuration");
  }

  private static FaultlineConfig load(
      String args, Map<String, String> env, Map<String, String> props) {
    return FaultlineConfig.builder()
        .sources(ConfigSources.of(env, props, args))
        .keys(TestKeys.ALL)
        .load();
  }

  private static String garbage(SplittableRandom random) {
    StringBuilder out = new StringBuilder();
    int pieces = random.nextInt(12);
    for (int p = 0; p < pieces; p++) {
      switch (random.nextInt(10)) {
        case 0:
          out.append((char) random.nextInt(0x10000));
          break;
        case 1:
          out.append(PIECES[random.nextInt(PIECES.length)].repeat(1 + random.nextInt(2000)));
          break;
        default:
          out.append(PIECES[random.nextInt(PIECES.length)]);
      }
    }
    return out.toString();
  }
}
