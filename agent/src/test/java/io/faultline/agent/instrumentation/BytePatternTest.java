package io.faultline.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BytePatternTest {

  @Test
  void findsAnAnnotationDescriptorInAClassFile() throws Exception {
    byte[] file;
    try (var in =
        getClass()
            .getResourceAsStream("/" + Annotated.class.getName().replace('.', '/') + ".class")) {
      file = in.readAllBytes();
    }
    String descriptor = "L" + Deprecated.class.getName().replace('.', '/') + ";";

    assertThat(BytePattern.of(descriptor).foundIn(file)).isTrue();
    assertThat(BytePattern.of("/Deprecated;").foundIn(file)).isTrue();
    assertThat(BytePattern.of("/Transactional;").foundIn(file)).isFalse();
  }

  @Test
  void findsThePatternAtTheEdgesAndNotPastThem() {
    BytePattern p = BytePattern.of("/Transactional;");

    assertThat(p.foundIn(bytes("/Transactional;"))).isTrue();
    assertThat(p.foundIn(bytes("/Transactional;...."))).isTrue();
    assertThat(p.foundIn(bytes("..../Transactional;"))).isTrue();
    assertThat(p.foundIn(bytes("/Transactional"))).isFalse();
    assertThat(p.foundIn(bytes("Transactional;"))).isFalse();
    assertThat(p.foundIn(bytes("Lcom/x/Other;"))).isFalse();
    assertThat(p.foundIn(new byte[0])).isFalse();
    assertThat(p.foundIn(null)).isFalse();
  }

  @Test
  void readsBytesAboveSevenBitsAsUnsigned() {
    byte[] pattern = {(byte) 0xCA, (byte) 0xFE, 0x01};

    assertThat(BytePattern.of(pattern).foundIn(new byte[] {0, (byte) 0xCA, (byte) 0xFE, 1, 2}))
        .isTrue();
    assertThat(BytePattern.of(pattern).foundIn(new byte[] {(byte) 0xFE, (byte) 0xCA, 1})).isFalse();
  }

  /** Horspool's skips must never jump over an occurrence: checked against a byte-by-byte search. */
  @Test
  void agreesWithANaiveSearchOnRandomInput() {
    Random random = new Random(42);
    for (int round = 0; round < 20_000; round++) {
      byte[] text = randomBytes(random, random.nextInt(64));
      byte[] pattern = randomBytes(random, 1 + random.nextInt(5));
      if (random.nextInt(3) == 0 && text.length >= pattern.length) {
        System.arraycopy(
            pattern, 0, text, random.nextInt(text.length - pattern.length + 1), pattern.length);
      }
      assertThat(BytePattern.of(pattern).foundIn(text))
          .as("round %d", round)
          .isEqualTo(naiveContains(text, pattern));
    }
  }

  @Test
  void anEmptyPatternIsRefused() {
    assertThatThrownBy(() -> BytePattern.of(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
  }

  @Test
  void theGivenArrayIsCopied() {
    byte[] given = bytes("abc");
    BytePattern p = BytePattern.of(given);
    given[0] = 'x';

    assertThat(p.foundIn(bytes("..abc.."))).isTrue();
    assertThat(p).hasToString("abc");
  }

  /** Three symbols, so random texts contain the pattern often enough to test both answers. */
  private static byte[] randomBytes(Random random, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (0xFD + random.nextInt(3));
    }
    return b;
  }

  private static boolean naiveContains(byte[] text, byte[] pattern) {
    outer:
    for (int i = 0; i + pattern.length <= text.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (text[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Deprecated
  static final class Annotated {}
}
