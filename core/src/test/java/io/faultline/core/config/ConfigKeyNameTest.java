package io.faultline.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written key-name check against the pattern it replaced. */
class ConfigKeyNameTest {

  private static final Pattern DECLARED =
      Pattern.compile("[a-z][a-z0-9-]*(\\.[a-z0-9][a-z0-9-]*)*");

  @Test
  void acceptsDottedLowercaseNames() {
    for (String name :
        new String[] {"a", "kafka.phases.delivery-after", "net.churn", "x1.2b", "a-.b-", "a.0"}) {
      assertThat(ConfigKey.isKeyName(name)).as(name).isTrue();
    }
  }

  @Test
  void refusesEverythingElse() {
    for (String name :
        new String[] {"", "1a", "-a", "A", "a.", ".a", "a..b", "a.-b", "a_b", "a b", "kafka.Tcp"}) {
      assertThat(ConfigKey.isKeyName(name)).as(name).isFalse();
    }
    assertThatThrownBy(() -> ConfigKey.bool("Kafka.on", true, "kafka", "d"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config key must be lowercase and dotted: Kafka.on");
  }

  @Test
  void agreesWithThePatternOnRandomNames() {
    Random random = new Random(7);
    String alphabet = "ab09.-A_";
    for (int n = 0; n < 50_000; n++) {
      StringBuilder name = new StringBuilder();
      for (int i = random.nextInt(7); i > 0; i--) {
        name.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String s = name.toString();
      assertThat(ConfigKey.isKeyName(s)).as(s).isEqualTo(DECLARED.matcher(s).matches());
    }
  }
}
