package io.faultline.jooq.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadCountsTest {

  @Test
  void sumsEveryThreadsCountsPerCounter() throws Exception {
    ThreadCounts counts = new ThreadCounts(2);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      threads.add(
          new Thread(
              () -> {
                for (int i = 0; i < 100_000; i++) {
                  counts.increment(0);
                  if (i % 10 == 0) {
                    counts.increment(1);
                  }
                }
              }));
    }
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    counts.increment(0);

    assertThat(counts.sum(0)).isEqualTo(800_001);
    assertThat(counts.sum(1)).isEqualTo(80_000);
  }

  @Test
  void aThreadThatEndedKeepsItsCountsButNotItsSlot() throws Exception {
    ThreadCounts counts = new ThreadCounts(1);
    Thread t = new Thread(() -> counts.increment(0));
    t.start();
    t.join();
    counts.increment(0);

    assertThat(counts.sum(0)).isEqualTo(2);
    assertThat(counts.slots()).isEqualTo(1);
    assertThat(counts.sum(0)).isEqualTo(2);
  }

  @Test
  void threadsBeyondTheLimitShareOneSlotAndLoseNothing() throws Exception {
    ThreadCounts counts = new ThreadCounts(1);
    int live = ThreadCounts.MAX_SLOTS + 40;
    CountDownLatch counted = new CountDownLatch(live);
    CountDownLatch end = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < live; t++) {
      Thread thread =
          new Thread(
              () -> {
                for (int i = 0; i < 1_000; i++) {
                  counts.increment(0);
                }
                counted.countDown();
                try {
                  end.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      threads.add(thread);
      thread.start();
    }
    counted.await();

    assertThat(counts.slots()).isEqualTo(ThreadCounts.MAX_SLOTS);
    assertThat(counts.sum(0)).isEqualTo(live * 1_000L);

    end.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertThat(counts.sum(0)).isEqualTo(live * 1_000L);
    assertThat(counts.slots()).isZero();
  }

  @Test
  void sumsOfARangeAreWhatEachSumAnswers() throws Exception {
    ThreadCounts counts = new ThreadCounts(5);
    Thread t =
        new Thread(
            () -> {
              counts.increment(1);
              counts.increment(3);
              counts.increment(3);
            });
    t.start();
    t.join();
    counts.increment(3);
    counts.increment(4);

    long[] range = new long[3];
    counts.sums(2, range);

    assertThat(range).containsExactly(0, 3, 1);
    assertThat(counts.sum(3)).isEqualTo(3);
    assertThatThrownBy(() -> counts.sums(3, new long[3]))
        .isInstanceOf(IndexOutOfBoundsException.class)
        .hasMessage("counters 3..5 of 5");
  }

  @Test
  void aSlotKeptByTheCallerIsItsOwnOnlyOnItsThreadAndInItsCounts() throws Exception {
    ThreadCounts counts = new ThreadCounts(2);
    ThreadCounts others = new ThreadCounts(2);
    ThreadCounts.Slot mine = counts.slot();
    counts.increment(mine, 1);

    assertThat(counts.isCallers(mine)).isTrue();
    assertThat(others.isCallers(mine)).isFalse();
    assertThat(counts.isCallers(null)).isFalse();
    boolean[] onAnotherThread = new boolean[1];
    Thread t = new Thread(() -> onAnotherThread[0] = counts.isCallers(mine));
    t.start();
    t.join();
    assertThat(onAnotherThread[0]).isFalse();
    assertThat(counts.sum(1)).isEqualTo(1);
  }

  @Test
  void refusesNoCounters() {
    assertThatThrownBy(() -> new ThreadCounts(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }
}
