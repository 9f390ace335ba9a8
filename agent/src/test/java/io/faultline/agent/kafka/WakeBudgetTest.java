package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WakeBudgetTest {

  private static final long PERIOD = 500_000;

  /**
   * Wakes as the sampler would, sleeping what the budget says; returns the wakes in {@code span}.
   */
  private static int wakesWithin(WakeBudget budget, long start, long span) {
    long now = start;
    int wakes = 0;
    while (now - start < span) {
      now += budget.sleepAfterWake(now);
      wakes++;
    }
    return wakes;
  }

  @Test
  void aBurstRunsAtTheFullPeriod() {
    WakeBudget budget = new WakeBudget(PERIOD, 200, 50, 0);
    long now = 0;
    for (int i = 0; i < 49; i++) {
      long sleep = budget.sleepAfterWake(now);
      assertThat(sleep).as("wake %d", i + 1).isEqualTo(PERIOD);
      now += sleep;
    }
  }

  @Test
  void aSustainedLoadWakesAtTheConfiguredRate() {
    WakeBudget budget = new WakeBudget(PERIOD, 200, 50, 0);
    wakesWithin(budget, 0, 1_000_000_000L); // uses the burst up
    int wakes = wakesWithin(budget, 1_000_000_000L, 10_000_000_000L);
    assertThat(wakes).isBetween(1990, 2010);
  }

  @Test
  void aRateAboveThePeriodsNeverThrottles() {
    WakeBudget budget = new WakeBudget(PERIOD, 2000, 50, 0);
    int wakes = wakesWithin(budget, 0, 10_000_000_000L);
    assertThat(wakes).isEqualTo(20_000);
  }

  @Test
  void aQuietSpellRefillsTheBurst() {
    WakeBudget budget = new WakeBudget(PERIOD, 200, 50, 0);
    long now = 0;
    for (int i = 0; i < 200; i++) {
      now += budget.sleepAfterWake(now);
    }
    assertThat(budget.sleepAfterWake(now)).isGreaterThan(PERIOD);
    now += 1_000_000_000L; // parked, nothing to watch
    assertThat(budget.sleepAfterWake(now)).isEqualTo(PERIOD);
  }

  @Test
  void aRateBelowOneCountsAsOne() {
    WakeBudget budget = new WakeBudget(PERIOD, 0, 1, 0);
    assertThat(budget.sleepAfterWake(0)).isEqualTo(1_000_000_000L);
  }
}
