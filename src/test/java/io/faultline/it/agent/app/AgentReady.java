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
    awaitRuntime("isInstalled");
  }

  /**
   * Returns at once without an agent; otherwise once its export has started too (it waits for the
   * application's start-up to settle), or after 60 s.
   */
  public static void awaitExport() throws Exception {
    awaitRuntime("exportStarted");
  }

  /**
   * Returns at once without an agent; otherwise once its export has started and its host doctor has
   * run once (with the doctor on), or after 60 s: what the agent's start costs in full.
   */
  public static void awaitFirstDoctorRun() throws Exception {
    awaitRuntime("exportStarted");
    awaitRuntime("doctorReport");
  }

  /** Waits until the runtime's no-argument {@code readyMethod} says true or present. */
  private static void awaitRuntime(String readyMethod) throws Exception {
    if (!attached()) {
      return;
    }
    Class<?> runtimeClass = Class.forName("io.faultline.agent.AgentRuntime");
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      Object runtime =
          ((java.util.Optional<?>) runtimeClass.getMethod("current").invoke(null)).orElse(null);
      if (runtime != null && isReady(runtimeClass.getMethod(readyMethod).invoke(runtime))) {
        return;
      }
      Thread.sleep(10);
    }
  }

  private static boolean isReady(Object answer) {
    return answer instanceof java.util.Optional<?> o ? o.isPresent() : (Boolean) answer;
  }

  /**
   * Whether a {@code -javaagent:} jar is Faultline's, by its manifest: a jar renamed for a
   * side-by-side comparison is still the agent.
   */
  private static boolean attached() {
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-javaagent:")) {
        String path = arg.substring("-javaagent:".length());
        int options = path.indexOf('=');
        try (java.util.jar.JarFile jar =
            new java.util.jar.JarFile(options < 0 ? path : path.substring(0, options))) {
          java.util.jar.Manifest manifest = jar.getManifest();
          if (manifest != null
              && "io.faultline.agent.FaultlineAgent"
                  .equals(manifest.getMainAttributes().getValue("Premain-Class"))) {
            return true;
          }
        } catch (java.io.IOException e) {
          // not a jar we can read: not ours to wait for
        }
      }
    }
    return false;
  }
}
