package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WarmupTest {

  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong clock = new AtomicLong(0);
  private final AtomicLong compiled = new AtomicLong(0);
  private final List<Long> pauses = new ArrayList<>();

  private Warmup warmup(long minRecords, int maxSeconds, long pauseMillis) {
    return new Warmup(
        minRecords,
        maxSeconds,
        pauseMillis,
        clock::get,
        compiled::get,
        millis -> {
          pauses.add(millis);
          clock.addAndGet(millis * 1_000_000L);
        });
  }

  /** Steps of one second with {@code compileMillis} of compilation in each until it ends. */
  private int secondsUntilEnd(Warmup warm, long compileMillis) {
    for (int second = 1; second <= 1000; second++) {
      clock.addAndGet(SECOND);
      compiled.addAndGet(compileMillis);
      if (!warm.goesOn(1_000)) {
        return second;
      }
    }
    throw new AssertionError("the warm-up never ended");
  }

  @Test
  void withoutAPauseItEndsOnceTheJitIsQuiet() {
    Warmup warm = warmup(100, 60, 0);
    assertThat(secondsUntilEnd(warm, 0)).isEqualTo(JitQuiet.QUIET_WINDOWS);
    assertThat(warm.quiet()).isTrue();
    assertThat(pauses).isEmpty();
  }

  @Test
  void itPausesOnceThenWarmsUntilTheJitIsQuietAgain() {
    Warmup warm = warmup(100, 60, 5_000);
    // Quiet after five windows: the pause comes, and the warm-up goes on.
    assertThat(secondsUntilEnd(warm, 0)).isEqualTo(2 * JitQuiet.QUIET_WINDOWS);
    assertThat(pauses).containsExactly(5_000L);
    assertThat(warm.quiet()).isTrue();
    assertThat(warm.nanos()).as("the pause counts").isEqualTo(15 * SECOND);
  }

  @Test
  void compilationAfterThePauseKeepsItWarmingUp() {
    Warmup warm = warmup(100, 60, 5_000);
    for (int second = 1; second <= JitQuiet.QUIET_WINDOWS; second++) {
      clock.addAndGet(SECOND);
      assertThat(warm.goesOn(1_000)).isTrue();
    }
    assertThat(pauses).hasSize(1);
    // The paths the pause broke compile for three seconds, then five quiet ones end it.
    for (int second = 1; second <= 3; second++) {
      clock.addAndGet(SECOND);
      compiled.addAndGet(400);
      assertThat(warm.goesOn(1_000)).as("compiling after the pause").isTrue();
    }
    assertThat(secondsUntilEnd(warm, 0)).isEqualTo(JitQuiet.QUIET_WINDOWS);
    assertThat(pauses).hasSize(1);
  }

  @Test
  void eachSideOfThePauseHasItsOwnTimeLimit() {
    Warmup warm = warmup(100, 8, 5_000);
    // Never quiet: the first limit brings the pause, the second ends the warm-up, not quiet.
    assertThat(secondsUntilEnd(warm, 200)).isEqualTo(16);
    assertThat(pauses).containsExactly(5_000L);
    assertThat(warm.quiet()).isFalse();
  }

  @Test
  void aWarmupOfNoRecordsNeverPauses() {
    Warmup warm = warmup(0, 0, 5_000);
    assertThat(warm.goesOn(0)).isFalse();
    assertThat(pauses).isEmpty();
  }

  @Test
  void itWaitsForItsRecordsBeforeItPauses() {
    Warmup warm = warmup(100, 1, 5_000);
    clock.addAndGet(10 * SECOND);
    assertThat(warm.goesOn(99)).isTrue();
    assertThat(pauses).isEmpty();
    assertThat(warm.goesOn(100)).isTrue();
    assertThat(pauses).hasSize(1);
  }
}
