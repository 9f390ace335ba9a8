package io.faultline.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CallSiteSamplerTest {

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final SplittableRandom random = new SplittableRandom(42);

  private CallSiteSampler sampler(int walksPerSecond) {
    return new CallSiteSampler(walksPerSecond, clock::get, random::nextInt);
  }

  /** Runs {@code begins} nested begins {@code gapNanos} apart; returns the weights they got. */
  private int[] run(CallSiteSampler sampler, int begins, long gapNanos) {
    int[] weights = new int[begins];
    for (int i = 0; i < begins; i++) {
      weights[i] = sampler.weight();
      clock.addAndGet(gapNanos);
    }
    return weights;
  }

  @Test
  void aBudgetOfZeroWalksEveryBegin() {
    CallSiteSampler sampler = sampler(0);
    assertThat(run(sampler, 10_000, 10_000)).containsOnly(1);
    assertThat(sampler.walks()).isEqualTo(10_000);
  }

  @Test
  void belowTheBudgetEveryBeginIsWalkedAndCountsOnce() {
    CallSiteSampler sampler = sampler(100);
    // 50 a second for 20 s: 5 per 100 ms window, the budget is 10.
    assertThat(run(sampler, 1_000, 20_000_000L)).containsOnly(1);
    assertThat(sampler.walks()).isEqualTo(1_000);
  }

  @Test
  void aboveTheBudgetAboutTheBudgetIsWalkedAndTheWeightsAddUpToTheBegins() {
    CallSiteSampler sampler = sampler(100);
    // 5,000 a second for 10 s.
    int[] weights = run(sampler, 50_000, 200_000L);

    long sum = 0;
    for (int w : weights) {
      sum += w;
    }
    // The first window, after no begins, walks fewer and fewer once its begins pass a second's
    // budget (about 100 × (1 + ln 5) = 261 of its 500); the other 99 about 10 each.
    assertThat(sampler.walks()).isBetween(261L + 700L, 261L + 1_300L);
    assertThat((double) sum).isCloseTo(50_000, within(5_000.0));
    assertThat(weights).contains(50);
  }

  @Test
  void aBurstAfterAQuietSpellWalksAboutTheBudgetNotEveryBegin() {
    CallSiteSampler sampler = sampler(100);
    run(sampler, 20, 50_000_000L); // 20 a second: every begin walked
    long before = sampler.walks();
    // Then 20,000 begins inside one window (200,000 a second): the previous window's rate would
    // walk them all.
    int[] burst = run(sampler, 20_000, 1_000L);

    long walked = sampler.walks() - before;
    long sum = 0;
    for (int w : burst) {
      sum += w;
    }
    // A second's budget (100, the 20 before included), then about 10 × ln(20,000 / 100) = 53 more
    // as the second's begins grow: not 100 × (1 + ln 200) = 630. Each walk counts 1 / its chance,
    // so the sum stays unbiased.
    assertThat(walked).isBetween(100L, 250L);
    assertThat((double) sum).isCloseTo(20_000, within(8_000.0));
  }

  @Test
  void burstsThatKeepComingAfterQuietSpellsWalkAboutTheBudgetASecond() {
    CallSiteSampler sampler = sampler(10);
    long begins = 0;
    long sum = 0;
    // 20 s of a batch a second: 200 ms at 1,600 a second, then a begin every 200 ms, whose windows
    // of one begin each set the rate back to walking every begin.
    for (int second = 0; second < 20; second++) {
      for (int w : run(sampler, 320, 625_000L)) {
        sum += w;
      }
      for (int w : run(sampler, 4, 200_000_000L)) {
        sum += w;
      }
      begins += 324;
    }
    // Each batch's first window would walk 10 × (1 + ln(160 / 10)) = 38, 760 in all with the
    // trickle's: the second's budget holds that to about 10 a second and a short tail (275).
    assertThat(sampler.walks()).isBetween(150L, 450L);
    assertThat((double) sum).isCloseTo(begins, within(begins * 0.25));
  }

  @Test
  void aShortBurstBelowASecondsBudgetIsWalkedWhole() {
    CallSiteSampler sampler = sampler(10);
    // Four nested begins a millisecond apart, as a transaction with a few savepoints begins them.
    assertThat(run(sampler, 4, 1_000_000L)).containsOnly(1);
    // Ten within one window: still one second's budget, every one walked.
    clock.addAndGet(10 * CallSiteSampler.WINDOW_NANOS);
    assertThat(run(sampler, 10, 1_000_000L)).containsOnly(1);
  }

  @Test
  void twoAlternatingSitesGetEqualEstimates() {
    CallSiteSampler sampler = sampler(100);
    // A B A B ...: a walk every n-th begin would always land on the same site when n is even.
    int[] weights = run(sampler, 100_000, 100_000L);
    long a = 0;
    long b = 0;
    for (int i = 0; i < weights.length; i++) {
      if (i % 2 == 0) {
        a += weights[i];
      } else {
        b += weights[i];
      }
    }
    assertThat((double) a / b).isCloseTo(1.0, within(0.15));
  }

  @Test
  void whenTheRateFallsEveryBeginIsWalkedAgainAfterOneWindow() {
    CallSiteSampler sampler = sampler(100);
    run(sampler, 10_000, 100_000L); // 10,000 a second for 1 s
    clock.addAndGet(CallSiteSampler.WINDOW_NANOS);
    int[] after = run(sampler, 200, 50_000_000L); // 20 a second
    // The first begin closes the busy window; from the next window on, every begin counts once.
    assertThat(java.util.Arrays.copyOfRange(after, 3, after.length)).containsOnly(1);
  }
}
