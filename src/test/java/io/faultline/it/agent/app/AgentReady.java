package io.faultline.it.agent.app;

import java.lang.management.ManagementFactory;

/**
 * Waits, in a child application, until an attached Faultline agent has installed its
 * instrumentation. The agent never makes the application wait (a library used before it is
 * installed is woven afterwards, and those first calls are not observed); an application whose test
 * is about what the agent does to its very first transaction or request waits here first.
 */
public final class AgentReady {

  private AgentReady() {}

  /** Returns at once without an agent; otherwise once it is installed, or after 60 s. */
  public static void await() throws Exception {
    boolean attached =
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .anyMatch(a -> a.startsWith("-javaagent:") && a.contains("faultline-agent"));
    if (!attached) {
      return;
    }
    Class<?> runtimeClass = Class.forName("io.faultline.agent.AgentRuntime");
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      Object runtime =
          ((java.util.Optional<?>) runtimeClass.getMethod("current").invoke(null)).orElse(null);
      if (runtime != null && (Boolean) runtimeClass.getMethod("isInstalled").invoke(runtime)) {
        return;
      }
      Thread.sleep(10);
    }
  }
}
