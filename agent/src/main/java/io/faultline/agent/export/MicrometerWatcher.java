package io.faultline.agent.export;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.concurrent.Executor;

/**
 * Waits for the application's Micrometer to load ({@code Metrics} by any class loader, e.g. Spring
 * Boot's nested-jar loader that does not exist yet when the agent starts) and then hands that
 * loader to the {@link ApplicationMicrometerBridge} on the agent's own thread. It changes no class:
 * {@link #transform} only compares a name and returns {@code null}.
 */
public final class MicrometerWatcher implements ClassFileTransformer {

  private final ApplicationMicrometerBridge bridge;
  private final Executor executor;

  private MicrometerWatcher(ApplicationMicrometerBridge bridge, Executor executor) {
    this.bridge = bridge;
    this.executor = executor;
  }

  /**
   * Watches from now on, and bridges at once into any loader that already loaded Micrometer (the
   * agent attached to a running JVM).
   */
  public static void watch(
      Instrumentation instrumentation, ApplicationMicrometerBridge bridge, Executor executor) {
    MicrometerWatcher watcher = new MicrometerWatcher(bridge, executor);
    instrumentation.addTransformer(watcher, false);
    String name = ApplicationMicrometerBridge.METRICS_INTERNAL_NAME.replace('/', '.');
    for (Class<?> loaded : instrumentation.getAllLoadedClasses()) {
      if (loaded.getName().equals(name) && loaded.getClassLoader() != null) {
        ClassLoader loader = loaded.getClassLoader();
        executor.execute(() -> bridge.bridgeInto(loader));
      }
    }
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (loader != null
        && classBeingRedefined == null
        && ApplicationMicrometerBridge.METRICS_INTERNAL_NAME.equals(className)) {
      // Not here: the class is being defined on this thread; the executor's forName waits for it.
      try {
        executor.execute(() -> bridge.bridgeInto(loader));
      } catch (RuntimeException e) {
        // a rejected task only means the agent is shutting down
      }
    }
    return null;
  }
}
