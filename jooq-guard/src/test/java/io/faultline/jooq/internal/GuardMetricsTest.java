package io.faultline.jooq.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.metrics.LateRegistry;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class GuardMetricsTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private DistributionSummary depth() {
    return registry.get("faultline.jooq.nesting.depth").summary();
  }

  private DistributionSummary perTransaction() {
    return registry.get("faultline.jooq.savepoints.per.transaction").summary();
  }

  private double committed() {
    return registry
        .get("faultline.jooq.transactions")
        .tags("outcome", "committed")
        .functionCounter()
        .count();
  }

  /** A top-level transaction's ledger that nested {@code depth} levels with {@code savepoints}. */
  private static Ledger ledger(int depth, int savepoints) {
    Ledger ledger = new Ledger();
    ledger.push(LevelKind.TOP, null, 0);
    for (int level = 2; level <= depth; level++) {
      ledger.push(LevelKind.SAVEPOINT, null, 0);
    }
    for (int i = 0; i < savepoints; i++) {
      ledger.savepointCreated();
    }
    return ledger;
  }

  @Test
  void aTransactionCountedOnAnotherThreadOrByAnotherGuardCountsThere() throws InterruptedException {
    GuardMetrics first = new GuardMetrics(() -> 0L);
    GuardMetrics second = new GuardMetrics(() -> 0L);
    Ledger ledger = ledger(2, 1);
    first.savepointCreated(ledger);
    second.savepointCreated(ledger);
    first.savepointReleased(ledger);
    // The slot it keeps is this thread's in the first guard's counts; another thread's counts go
    // to that thread's slot, which is read after it ends as well.
    Thread other =
        new Thread(
            () -> {
              for (int i = 0; i < 1000; i++) {
                first.savepointCreated(ledger);
              }
            });
    other.start();
    other.join();
    first.savepointCreated(ledger);

    assertThat(first.stats().savepointsCreated()).isEqualTo(1002);
    assertThat(first.stats().savepointsReleased()).isEqualTo(1);
    assertThat(second.stats().savepointsCreated()).isEqualTo(1);
    assertThat(second.stats().savepointsReleased()).isZero();
  }

  @Test
  void depthsCountedOnManyThreadsAreRecordedExactlyOnceWhenTheCountersAreRead()
      throws InterruptedException {
    // A clock that stands still: only reads record.
    GuardMetrics metrics = new GuardMetrics(() -> 0L);
    metrics.bindTo(registry);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int depth = 2 + t % 3;
      Thread thread =
          new Thread(
              () -> {
                for (int i = 0; i < 10_000; i++) {
                  Ledger ledger = ledger(depth, depth - 1);
                  metrics.transactionCommitted(ledger);
                  metrics.transactionEnded(ledger);
                }
              });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    // Nothing is recorded until something reads the guard's counters.
    assertThat(depth().count()).isZero();

    assertThat(committed()).isEqualTo(80_000.0);

    // Threads 0, 3, 6 nested 2 deep with 1 savepoint; 1, 4, 7 3 deep with 2; 2, 5 4 deep with 3.
    assertThat(depth().count()).isEqualTo(80_000);
    assertThat(depth().totalAmount()).isEqualTo(30_000 * 2 + 30_000 * 3 + 20_000 * 4);
    assertThat(depth().max()).isEqualTo(4.0);
    assertThat(perTransaction().count()).isEqualTo(80_000);
    assertThat(perTransaction().totalAmount()).isEqualTo(30_000 + 30_000 * 2 + 20_000 * 3);
    // A second read records nothing twice.
    metrics.stats();
    committed();
    assertThat(depth().count()).isEqualTo(80_000);
  }

  @Test
  void aFlatTransactionIsInNoSummaryAndAnUnusualValueIsRecordedAtOnce() {
    GuardMetrics metrics = new GuardMetrics();
    metrics.bindTo(registry);

    metrics.transactionEnded(ledger(1, 0));
    metrics.transactionEnded(
        ledger(GuardMetrics.DEPTH_VALUES, GuardMetrics.SAVEPOINT_VALUES + 100));

    assertThat(depth().count()).isEqualTo(1);
    assertThat(depth().max()).isEqualTo(GuardMetrics.DEPTH_VALUES);
    assertThat(perTransaction().max()).isEqualTo(GuardMetrics.SAVEPOINT_VALUES + 100);
    metrics.stats();
    assertThat(depth().count()).isEqualTo(1);
  }

  @Test
  void valuesCountedBeforeALateRegistryExistsAreInItsSummaries() {
    List<Consumer<MeterRegistry>> queued = new ArrayList<>();
    LateRegistry late = queued::add;
    GuardMetrics metrics = new GuardMetrics(() -> 0L);
    metrics.bindWhenReady(late, Tags.empty());

    metrics.transactionEnded(ledger(3, 2));
    metrics.stats(); // read before the registry exists: kept for it
    metrics.transactionEnded(ledger(2, 1));
    queued.forEach(action -> action.accept(registry));

    assertThat(depth().count()).isEqualTo(1);
    committed();
    assertThat(depth().count()).isEqualTo(2);
    assertThat(depth().totalAmount()).isEqualTo(5.0);
    assertThat(perTransaction().totalAmount()).isEqualTo(3.0);
  }

  @Test
  void whileTransactionsNestTheSummariesTrailThemByAtMostTheRecordingInterval() {
    long[] now = {0};
    GuardMetrics metrics = new GuardMetrics(() -> now[0]);
    metrics.bindTo(registry);
    metrics.transactionEnded(ledger(2, 1));
    now[0] += GuardMetrics.RECORD_EVERY_MILLIS * 1_000_000L - 1;
    metrics.transactionEnded(ledger(2, 1));
    assertThat(depth().count()).isZero();

    now[0] += 1;
    metrics.transactionEnded(ledger(3, 2));

    // The third transaction's end found the last recording old enough and recorded all three.
    assertThat(depth().count()).isEqualTo(3);
    assertThat(depth().max()).isEqualTo(3.0);
    assertThat(perTransaction().totalAmount()).isEqualTo(4.0);
  }

  @Test
  void aClosedGuardRecordsNothingMore() {
    GuardMetrics metrics = new GuardMetrics();
    metrics.bindTo(registry);
    DistributionSummary depth = depth();
    metrics.close();

    metrics.transactionEnded(ledger(2, 1));
    metrics.stats();

    assertThat(depth.count()).isZero();
    assertThat(registry.getMeters()).isEmpty();
  }
}
