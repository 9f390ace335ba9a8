package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

class ThrottleTest {

  @Test
  void holdsTheRateBySleepingNotSpinning() throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    ProducerPerf.Throttle throttle = new ProducerPerf.Throttle(15_000);
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    for (int i = 0; i < 3_000; i++) {
      throttle.pace(i + 1, start);
    }
    long wall = System.nanoTime() - start;
    long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;

    // 3,000 at 15,000 a second is 200 ms; it may end up to 2 ms early (it sleeps only when at
    // least that far ahead), never more.
    assertThat(wall).isGreaterThanOrEqualTo(198_000_000L);
    // A spinning throttle would burn the whole 200 ms on this thread.
    assertThat(cpu).isLessThan(wall / 2);
  }

  @Test
  void uncappedNeverWaits() throws Exception {
    ProducerPerf.Throttle throttle = new ProducerPerf.Throttle(-1);
    long start = System.nanoTime();
    for (int i = 0; i < 1_000_000; i++) {
      throttle.pace(i + 1, start);
    }
    // A million records "due" over any time at all: an uncapped throttle must not have slept for
    // them (15 s at the capped rate above).
    assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
  }
}
