package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class JitQuietTest {

  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong compiled = new AtomicLong(5_000);
  private final JitQuiet jit = new JitQuiet(compiled::get, 0);

  @Test
  void quietAfterFiveWindowsWithLittleCompilation() {
    compiled.addAndGet(900); // a busy first second
    assertThat(jit.quiet(SECOND)).isFalse();
    for (int window = 2; window <= 5; window++) {
      compiled.addAndGet(40);
      assertThat(jit.quiet(window * SECOND)).isFalse();
    }
    compiled.addAndGet(50);
    assertThat(jit.quiet(6 * SECOND)).isTrue();
  }

  @Test
  void aBurstStartsTheCountAgain() {
    for (int window = 1; window <= 4; window++) {
      compiled.addAndGet(10);
      assertThat(jit.quiet(window * SECOND)).isFalse();
    }
    compiled.addAndGet(51); // a burst in the fifth second
    assertThat(jit.quiet(5 * SECOND)).isFalse();
    for (int window = 6; window <= 9; window++) {
      assertThat(jit.quiet(window * SECOND)).isFalse();
    }
    assertThat(jit.quiet(10 * SECOND)).isTrue();
  }

  @Test
  void aWindowClosesOnlyAfterASecond() {
    assertThat(jit.quiet(SECOND / 2)).isFalse();
    assertThat(jit.quiet(SECOND - 1)).isFalse();
    assertThat(jit.quiet(SECOND)).isFalse(); // one quiet window
    for (int window = 2; window <= 4; window++) {
      assertThat(jit.quiet(window * SECOND)).isFalse();
    }
    assertThat(jit.quiet(5 * SECOND - 1)).isFalse(); // the fifth is not over yet
    assertThat(jit.quiet(5 * SECOND)).isTrue();
  }
}
