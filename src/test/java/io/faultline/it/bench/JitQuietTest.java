package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class JitQuietTest {

  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong compiled = new AtomicLong(5_000);
  private final JitQuiet jit = new JitQuiet(compiled::get, 0);

  @Test
  void quietAfterTwoWindowsWithLittleCompilation() {
    compiled.addAndGet(900); // a busy first second
    assertThat(jit.quiet(SECOND)).isFalse();
    compiled.addAndGet(40);
    assertThat(jit.quiet(2 * SECOND)).isFalse();
    compiled.addAndGet(50);
    assertThat(jit.quiet(3 * SECOND)).isTrue();
  }

  @Test
  void aBurstStartsTheCountAgain() {
    compiled.addAndGet(10);
    assertThat(jit.quiet(SECOND)).isFalse();
    compiled.addAndGet(51);
    assertThat(jit.quiet(2 * SECOND)).isFalse();
    compiled.addAndGet(0);
    assertThat(jit.quiet(3 * SECOND)).isFalse();
    assertThat(jit.quiet(4 * SECOND)).isTrue();
  }

  @Test
  void aWindowClosesOnlyAfterASecond() {
    assertThat(jit.quiet(SECOND / 2)).isFalse();
    assertThat(jit.quiet(SECOND - 1)).isFalse();
    assertThat(jit.quiet(SECOND)).isFalse(); // one quiet window
    assertThat(jit.quiet(2 * SECOND - 1)).isFalse();
    assertThat(jit.quiet(2 * SECOND)).isTrue();
  }
}
