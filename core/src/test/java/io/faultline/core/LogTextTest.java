package io.faultline.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

  @Test
  void controlCharactersAndLineSeparatorsAreEscaped() {
    assertThat(LogText.oneLine("client-1\nfaultline: ERROR forged\r\t\u0000\u2028\u0085"))
        .isEqualTo("client-1\\nfaultline: ERROR forged\\r\\t\\u0000\\u2028\\u0085");
    assertThat(LogText.escape("a\nb")).isEqualTo("a\\nb");
    assertThat(LogText.oneLine(null)).isEqualTo("null");
  }

  @Test
  void longValuesAreCutWithTheirLengthButEscapeKeepsEverything() {
    String huge = "x".repeat(10_000) + "\n";
    assertThat(LogText.oneLine(huge))
        .hasSizeLessThan(LogText.MAX + 40)
        .endsWith("... (10001 characters)")
        .doesNotContain("\n");
    assertThat(LogText.escape(huge)).hasSize(10_002).endsWith("\\n");
  }
}
