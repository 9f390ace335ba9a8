package io.faultline.core.finding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The hand-written finding-id check against the pattern it replaced. */
class FindingTypeIdTest {

  private static final Pattern DECLARED = Pattern.compile("[A-Z][A-Z0-9]*(_[A-Z0-9]+)*");

  @Test
  void acceptsUpperSnakeCase() {
    for (String id : new String[] {"A", "KAFKA_TRANSMIT_BOUND", "TCP_0WINDOW", "X1_2"}) {
      assertThat(FindingType.isId(id)).as(id).isTrue();
    }
  }

  @Test
  void refusesEverythingElse() {
    for (String id : new String[] {"", "1A", "_A", "A_", "A__B", "a", "A-B", "A B", "Ab"}) {
      assertThat(FindingType.isId(id)).as(id).isFalse();
    }
  }

  @Test
  void agreesWithThePatternOnRandomIds() {
    Random random = new Random(11);
    String alphabet = "AZ09_a-";
    for (int n = 0; n < 50_000; n++) {
      StringBuilder id = new StringBuilder();
      for (int i = random.nextInt(7); i > 0; i--) {
        id.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String s = id.toString();
      assertThat(FindingType.isId(s)).as(s).isEqualTo(DECLARED.matcher(s).matches());
    }
  }
}
