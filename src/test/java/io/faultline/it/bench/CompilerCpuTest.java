package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class CompilerCpuTest {

  @Test
  void theCompilerThreadsOfThisJvmHaveRun() {
    // By the time a test runs, this JVM has compiled hundreds of methods; 0 would mean the
    // threads were not found (a HotSpot that names them differently, or /proc unreadable).
    assertThat(CompilerCpu.nanos()).isPositive();
  }

  @Test
  void itGrowsWhileCodeIsCompiled() throws Exception {
    long before = CompilerCpu.nanos();
    long sum = 0;
    for (int i = 0; i < 2_000_000; i++) {
      sum += Integer.toString(i).hashCode(); // fresh hot code for C1 and C2
    }
    Thread.sleep(200); // compilation runs on its own threads
    assertThat(CompilerCpu.nanos()).isGreaterThan(before);
    assertThat(sum).isNotZero();
  }
}
