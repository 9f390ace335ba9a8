package io.faultline.jooq.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PoolFeedbackTest {

  private static final long SECOND = 1_000_000_000L;
  private static final PoolFeedbackThresholds THRESHOLDS =
      new PoolFeedbackThresholds(Duration.ofSeconds(10), 3, 0.75, 2, Duration.ofSeconds(1));

  private final PoolFeedback feedback = new PoolFeedback(THRESHOLDS);

  private static PoolReading pool(int total, int minimumIdle) {
    return new PoolReading("app", total, total, 0, 0, minimumIdle, 20);
  }

  private static ContentionReading waiters(int n) {
    return new ContentionReading(n, 0.1);
  }

  @Test
  void growthTowardTheMaximumWhileLockWaitsRiseIsRaisedWithBeforeAndAfter() {
    assertThat(feedback.next(0, pool(1, 1), waiters(0))).isEmpty();
    assertThat(feedback.next(2 * SECOND, pool(8, 1), waiters(4))).isEmpty(); // not near max yet
    Optional<Finding> finding = feedback.next(4 * SECOND, pool(18, 1), waiters(12));

    assertThat(finding).isPresent();
    assertThat(finding.get().type())
        .isEqualTo(PoolFeedbackFindingTypes.POOL_GROWTH_UNDER_CONTENTION);
    assertThat(finding.get().subject()).isEqualTo("app");
    assertThat(finding.get().evidence())
        .containsEntry("total", "1->18")
        .containsEntry("lockWaiters", "0->12")
        .containsEntry("maximumPoolSize", 20);
  }

  @Test
  void growthWithoutContentionIsNotRaised() {
    feedback.next(0, pool(1, 1), waiters(0));
    assertThat(feedback.next(SECOND, pool(20, 1), waiters(1))).isEmpty();
  }

  @Test
  void contentionWithoutGrowthIsNotRaised() {
    feedback.next(0, pool(20, 20), waiters(0));
    assertThat(feedback.next(SECOND, pool(20, 20), waiters(15))).isEmpty();
  }

  @Test
  void aFixedPoolWarmingUpToItsMinimumIdleIsNotGrowth() {
    feedback.next(0, pool(2, 20), waiters(0));
    assertThat(feedback.next(SECOND, pool(20, 20), waiters(15))).isEmpty();
  }

  @Test
  void slowStatementsCountAsContentionToo() {
    feedback.next(0, pool(1, 1), new ContentionReading(0, 0));
    assertThat(feedback.next(SECOND, pool(16, 1), new ContentionReading(0, 2.5))).isPresent();
  }

  @Test
  void fallingContentionIsNotRising() {
    feedback.next(0, pool(1, 1), waiters(10));
    assertThat(feedback.next(SECOND, pool(16, 1), waiters(3))).isEmpty();
  }

  @Test
  void growthOutsideTheWindowDoesNotCount() {
    feedback.next(0, pool(1, 1), waiters(0));
    feedback.next(20 * SECOND, pool(15, 1), waiters(0));
    assertThat(feedback.next(21 * SECOND, pool(16, 1), waiters(5))).isEmpty();
  }

  @Test
  void itStaysRaisedWhileContendedAndClearsWhenContentionStops() {
    feedback.next(0, pool(1, 1), waiters(0));
    assertThat(feedback.next(SECOND, pool(20, 1), waiters(10))).isPresent();
    // Growth has stopped at the maximum but the loop is still on: the pool holds it there.
    assertThat(feedback.next(30 * SECOND, pool(20, 1), waiters(9))).isPresent();
    assertThat(feedback.next(31 * SECOND, pool(20, 1), waiters(0))).isEmpty();
    assertThat(feedback.raised()).isFalse();
  }

  @Test
  void itClearsWhenThePoolShrinks() {
    feedback.next(0, pool(1, 1), waiters(0));
    assertThat(feedback.next(SECOND, pool(20, 1), waiters(10))).isPresent();
    assertThat(feedback.next(2 * SECOND, pool(5, 1), waiters(10))).isEmpty();
  }

  @Test
  void aResizedPoolStartsAfresh() {
    feedback.next(0, pool(1, 1), waiters(0));
    PoolReading resized = new PoolReading("app", 30, 30, 0, 0, 1, 40);
    assertThat(feedback.next(SECOND, resized, waiters(10))).isEmpty();
  }
}
