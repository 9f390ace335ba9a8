package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ThreadCpuSnapshotTest {

  @Test
  void theCompilerThreadsOfThisJvmHaveRun() {
    // By the time a test runs, this JVM has compiled hundreds of methods; 0 would mean the
    // threads were not found (a HotSpot that names them differently, or /proc unreadable).
    ThreadCpuSnapshot now = ThreadCpuSnapshot.take();
    assertThat(now.jitSince(ThreadCpuSnapshot.empty())).isPositive();
    assertThat(now.cpuSince(ThreadCpuSnapshot.empty()))
        .isGreaterThan(now.jitSince(ThreadCpuSnapshot.empty()));
  }

  @Test
  void theJitsShareGrowsWhileCodeIsCompiled() throws Exception {
    ThreadCpuSnapshot before = ThreadCpuSnapshot.take();
    // Hot code until the compiler threads have visibly worked on it: no fixed wait, since on a
    // busy machine the compilation can come late; the class's timeout fails a wait that never ends
    // (threads not found, or not counted).
    long sum = 0;
    int rounds = 0;
    ThreadCpuSnapshot after;
    // At least one round: the compiler threads may already be busy with earlier code, and the
    // count must be seen to grow past what this hot code started from.
    do {
      for (int i = 0; i < 200_000; i++) {
        sum += Integer.toString(i + rounds).hashCode(); // fresh hot code for C1 and C2
      }
      rounds++;
      Thread.sleep(10); // compilation runs on its own threads, and their CPU time is sampled
      after = ThreadCpuSnapshot.take();
    } while (after.jitSince(before) == 0);
    assertThat(after.jitSince(before)).isPositive();
    assertThat(after.cpuSince(before)).isGreaterThanOrEqualTo(after.jitSince(before));
    System.out.println(
        "[faultline-it] compiler CPU grew after " + rounds + " rounds (checksum " + sum + ")");
  }

  @Test
  void cpuCountsTheNanosecondsOfEveryThread() {
    ThreadCpuSnapshot before = ThreadCpuSnapshot.take();
    long threadBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    long x = 0;
    long until = System.nanoTime() + 50_000_000;
    while (System.nanoTime() < until) {
      x += Long.numberOfTrailingZeros(System.nanoTime());
    }
    long thread = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadBefore;
    long process = ThreadCpuSnapshot.take().cpuSince(before);
    assertThat(x).isPositive();
    assertThat(process).isGreaterThanOrEqualTo(thread);
    // Ticks would be whole multiples of 10 ms.
    assertThat(process % 10_000_000).isNotZero();
  }
}
