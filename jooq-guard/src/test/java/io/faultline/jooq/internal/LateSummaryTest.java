package io.faultline.jooq.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class LateSummaryTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private DistributionSummary summary(String name) {
    return DistributionSummary.builder(name).register(registry);
  }

  @Test
  void valuesBeforeTheBindAreRecordedAtIt() {
    LateSummary late = new LateSummary();
    late.awaitBind();
    late.record(1);
    late.record(1);
    late.record(3);
    assertThat(late.pending()).isEqualTo(3);

    DistributionSummary target = summary("a");
    late.bind(target);
    late.record(2);

    assertThat(target.count()).isEqualTo(4);
    assertThat(target.totalAmount()).isEqualTo(7.0);
    assertThat(target.max()).isEqualTo(3.0);
    assertThat(late.pending()).isZero();
  }

  @Test
  void withoutABindOnItsWayValuesAreDropped() {
    LateSummary late = new LateSummary();
    late.record(4);
    assertThat(late.pending()).isZero();
  }

  @Test
  void afterCloseValuesAreDroppedUntilTheNextBind() {
    LateSummary late = new LateSummary();
    late.awaitBind();
    late.record(5);
    late.close();
    late.record(6);
    assertThat(late.pending()).isZero();

    DistributionSummary target = summary("b");
    late.bind(target);
    late.record(7);

    assertThat(target.count()).isEqualTo(1);
    assertThat(target.totalAmount()).isEqualTo(7.0);
  }

  @Test
  void distinctValuesBeyondTheLimitAreNotKeptBeforeTheBind() {
    LateSummary late = new LateSummary();
    late.awaitBind();
    for (int v = 0; v < LateSummary.MAX_PENDING_VALUES + 10; v++) {
      late.record(v);
    }
    late.record(0);

    assertThat(late.pending()).isEqualTo(LateSummary.MAX_PENDING_VALUES + 1);
  }

  @Test
  void valuesRecordedWhileTheBindRunsAreEachRecordedOnce() throws Exception {
    for (int round = 0; round < 50; round++) {
      LateSummary late = new LateSummary();
      late.awaitBind();
      int threads = 4;
      int perThread = 2_000;
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> writers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int value = t % 3;
        Thread w =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int i = 0; i < perThread; i++) {
                    late.record(value);
                  }
                });
        w.start();
        writers.add(w);
      }
      DistributionSummary target = summary("race" + round);
      start.countDown();
      Thread.onSpinWait();
      late.bind(target);
      for (Thread w : writers) {
        w.join();
      }

      assertThat(target.count()).as("round %d", round).isEqualTo((long) threads * perThread);
      assertThat(late.pending()).isZero();
    }
  }
}
