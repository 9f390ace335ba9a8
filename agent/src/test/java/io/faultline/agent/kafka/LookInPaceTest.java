package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LookInPaceTest {

  private static final long MS = 1_000_000L;

  @Test
  void looksInQuietlyUntilARequestIsFoundDue() {
    LookInPace pace = new LookInPace(5 * MS);
    assertThat(pace.lookNanos(0)).isEqualTo(LookInPace.QUIET_MILLIS * MS);
    assertThat(pace.lookNanos(10_000 * MS)).isEqualTo(LookInPace.QUIET_MILLIS * MS);
  }

  @Test
  void aDueRequestHoldsTheFullPaceThenItRelaxes() {
    LookInPace pace = new LookInPace(5 * MS);
    pace.dueFound(1_000 * MS);
    assertThat(pace.lookNanos(1_000 * MS)).isEqualTo(5 * MS);
    assertThat(pace.lookNanos((1_000 + LookInPace.HOLD_MILLIS - 1) * MS)).isEqualTo(5 * MS);
    assertThat(pace.lookNanos((1_000 + LookInPace.HOLD_MILLIS) * MS))
        .isEqualTo(LookInPace.QUIET_MILLIS * MS);
    pace.dueFound(2_000 * MS);
    assertThat(pace.lookNanos(2_100 * MS)).as("found due again").isEqualTo(5 * MS);
  }

  @Test
  void whileQuietItDoesNotChaseTheNextDueTime() {
    LookInPace pace = new LookInPace(5 * MS);
    assertThat(pace.sleepNanos(0, 2 * MS)).isEqualTo(LookInPace.QUIET_MILLIS * MS);
    pace.dueFound(1_000 * MS);
    assertThat(pace.sleepNanos(1_001 * MS, 2 * MS))
        .as("due sooner than the pace")
        .isEqualTo(2 * MS);
    assertThat(pace.sleepNanos(1_001 * MS, 40 * MS)).as("due later").isEqualTo(5 * MS);
    assertThat(pace.sleepNanos((1_000 + LookInPace.HOLD_MILLIS) * MS, 2 * MS))
        .isEqualTo(LookInPace.QUIET_MILLIS * MS);
  }

  @Test
  void aDelayLongerThanTheQuietPaceIsItsOwnPace() {
    LookInPace pace = new LookInPace(80 * MS);
    assertThat(pace.lookNanos(0)).isEqualTo(80 * MS);
    pace.dueFound(0);
    assertThat(pace.lookNanos(0)).isEqualTo(80 * MS);
  }

  @Test
  void readingEverySendNeverSlowsDown() {
    LookInPace pace = new LookInPace(0);
    assertThat(pace.lookNanos(0)).isEqualTo(MS);
    assertThat(pace.lookNanos(10_000 * MS)).isEqualTo(MS);
  }

  @Test
  void whenEveryClientLooksInItselfTheQuietPaceIsASecondAndNothingHoldsTheFullPace() {
    LookInPace pace = new LookInPace(5 * MS);
    long quiet = LookInPace.CLIENTS_LOOK_IN_MILLIS * MS;
    assertThat(pace.lookNanos(0, true)).isEqualTo(quiet);
    pace.dueFound(1_000 * MS);
    assertThat(pace.lookNanos(1_001 * MS, true)).isEqualTo(quiet);
    assertThat(pace.sleepNanos(1_001 * MS, 2 * MS, true))
        .as("the client wakes the sampler when that send is due")
        .isEqualTo(quiet);
    assertThat(pace.fast(1_001 * MS, true)).isFalse();
    assertThat(pace.fast(1_001 * MS, false)).isTrue();
    assertThat(pace.lookNanos(1_001 * MS, false)).as("a client that does not").isEqualTo(5 * MS);
  }

  @Test
  void theTimeSourceMayStartNegative() {
    LookInPace pace = new LookInPace(5 * MS);
    pace.dueFound(-3_000 * MS);
    assertThat(pace.lookNanos(-3_000 * MS + MS)).isEqualTo(5 * MS);
    assertThat(pace.lookNanos(-2_000 * MS)).isEqualTo(LookInPace.QUIET_MILLIS * MS);
  }
}
