package io.faultline.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AfterStartupTest {

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void runsOnceNoClassLoadsForTheQuietTime() throws Exception {
    AtomicLong classes = new AtomicLong(100);
    CountDownLatch ran = new CountDownLatch(1);
    long asked = System.nanoTime();
    AfterStartup.schedule(scheduler, classes::get, ran::countDown, 200, 60_000, 10);

    assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(System.nanoTime() - asked)
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
  }

  @Test
  void waitsWhileClassesKeepLoading() throws Exception {
    AtomicLong classes = new AtomicLong();
    CountDownLatch ran = new CountDownLatch(1);
    AtomicLong loadedWhenRun = new AtomicLong(-1);
    // Every look sees one more class until 30 have loaded, then none.
    AfterStartup.schedule(
        scheduler,
        () -> classes.get() < 30 ? classes.incrementAndGet() : classes.get(),
        () -> {
          loadedWhenRun.set(classes.get());
          ran.countDown();
        },
        100,
        60_000,
        10);

    assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(loadedWhenRun.get()).isEqualTo(30);
  }

  @Test
  void runsAtTheLatestTimeWhenClassesNeverStop() throws Exception {
    AtomicLong classes = new AtomicLong();
    CountDownLatch ran = new CountDownLatch(1);
    long asked = System.nanoTime();
    AfterStartup.schedule(scheduler, classes::incrementAndGet, ran::countDown, 60_000, 300, 10);

    assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(System.nanoTime() - asked)
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
  }

  @Test
  void runsTheTaskOnce() throws Exception {
    AtomicLong runs = new AtomicLong();
    AfterStartup.schedule(scheduler, () -> 7, runs::incrementAndGet, 20, 60_000, 5);

    Thread.sleep(500);
    assertThat(runs.get()).isEqualTo(1);
  }
}
