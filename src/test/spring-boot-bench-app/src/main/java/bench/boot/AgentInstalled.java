package bench.boot;

import java.lang.management.ManagementFactory;
import java.util.Optional;

/**
 * Waits until an attached Faultline agent has installed its instrumentation, so the CPU the service
 * reports includes the agent's whole start. The integration suite's {@code AgentReady} does the
 * same; this service cannot depend on the suite, and reaches the agent by reflection only, so no
 * Faultline class is part of it.
 */
final class AgentInstalled {

  private AgentInstalled() {}

  /** Returns at once without the agent; otherwise once it is installed, or after 60 s. */
  static void await() throws Exception {
    boolean attached =
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .anyMatch(a -> a.startsWith("-javaagent:") && a.contains("faultline-agent"));
    if (!attached) {
      return;
    }
    // The agent's jar is on the system class path, which Boot's launcher delegates to.
    Class<?> runtimeClass = Class.forName("io.faultline.agent.AgentRuntime");
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      Object runtime = ((Optional<?>) runtimeClass.getMethod("current").invoke(null)).orElse(null);
      if (runtime != null && (Boolean) runtimeClass.getMethod("isInstalled").invoke(runtime)) {
        return;
      }
      Thread.sleep(10);
    }
  }
}
