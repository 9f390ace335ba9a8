package io.faultline.it.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@EnabledOnOs(OS.LINUX)
class CpuPinningTest {

  @Test
  void pinsTheBrokerToAllButTheLastCpuAndFreesItOnClose() throws Exception {
    assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
    Process broker = new ProcessBuilder("sleep", "60").start();
    try {
      String pinnedDescription;
      try (CpuPinning pinning = CpuPinning.of(List.of(broker.toHandle()), 2)) {
        pinnedDescription = pinning.description();
        assertThat(allowedCpus(broker)).isEqualTo("0");
        assertThat(pinning.wrap(List.of("java", "-version")))
            .containsExactly("taskset", "-c", "1", "java", "-version");
      }
      assertThat(pinnedDescription).contains("CPU 1").contains("CPU 0");
      assertThat(allowedCpus(broker)).isEqualTo("0-1");
    } finally {
      broker.destroy();
      broker.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aPinnedChildKeepsTheCollectorTheWholeMachineWouldGiveIt() throws Exception {
    assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
    Process broker = new ProcessBuilder("sleep", "60").start();
    try (CpuPinning pinning = CpuPinning.of(List.of(broker.toHandle()), 2)) {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(pinning.jvmOptions());
      command.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
      // Without the options a JVM on one CPU is not server class and runs SerialGC.
      assertThat(flag(pinning.wrap(command), "UseG1GC")).isEqualTo("true");
      assertThat(flag(pinning.wrap(command), "UseSerialGC")).isEqualTo("false");
    } finally {
      broker.destroy();
      broker.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void pinsNothingOnOneCpuOrWithoutTheBrokersProcesses() {
    try (CpuPinning one = CpuPinning.of(List.of(ProcessHandle.current()), 1);
        CpuPinning none = CpuPinning.of(List.of(), 2)) {
      assertThat(one.wrap(List.of("java"))).containsExactly("java");
      assertThat(one.jvmOptions()).isEmpty();
      assertThat(one.description()).contains("not pinned: one CPU only");
      assertThat(none.wrap(List.of("java"))).containsExactly("java");
      assertThat(none.description()).contains("not pinned: the broker's processes are unknown");
    }
  }

  private static String flag(List<String> command, String name) throws Exception {
    Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return out.lines()
        .map(String::strip)
        .filter(l -> l.matches("\\S+\\s+" + name + "\\s+=.*"))
        .map(l -> l.replaceAll(".*=\\s*(\\S+).*", "$1"))
        .findFirst()
        .orElseThrow(() -> new AssertionError(name + " not in " + out));
  }

  private static String allowedCpus(Process p) throws Exception {
    return Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status")).stream()
        .filter(l -> l.startsWith("Cpus_allowed_list:"))
        .map(l -> l.substring(l.indexOf(':') + 1).strip())
        .findFirst()
        .orElseThrow();
  }
}
