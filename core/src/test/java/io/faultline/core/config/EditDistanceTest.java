package io.faultline.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class EditDistanceTest {

  private static final List<String> KEYS =
      List.of("kafka.tcp.interval", "kafka.tcp.buffer", "net.churn", "net.churn.window");

  @Test
  void suggestsTheClosestKeyForATypo() {
    assertThat(EditDistance.closest("kafka.tcp.intervall", KEYS)).contains("kafka.tcp.interval");
    assertThat(EditDistance.closest("NET.CHURN", KEYS)).contains("net.churn");
    assertThat(EditDistance.closest("net.chrun.window", KEYS)).contains("net.churn.window");
  }

  @Test
  void suggestsNothingWhenNoKeyIsReasonablyClose() {
    assertThat(EditDistance.closest("kafka", KEYS)).isEmpty();
    assertThat(EditDistance.closest("net.x", KEYS)).isEmpty();
    assertThat(EditDistance.closest("", KEYS)).isEmpty();
    assertThat(EditDistance.closest("x".repeat(1 << 20), KEYS)).isEmpty();
  }

  @Test
  void countsInsertionsDeletionsAndSubstitutions() {
    assertThat(EditDistance.levenshtein("kitten", "sitting")).isEqualTo(3);
    assertThat(EditDistance.levenshtein("", "abc")).isEqualTo(3);
    assertThat(EditDistance.levenshtein("same", "same")).isZero();
  }
}
