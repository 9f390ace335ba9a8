package io.faultline.agent;

import io.faultline.core.Loggers;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Gives the agent's classes the loggers the JDK gives its own: until the application sets up {@code
 * java.util.logging} (with no logging configuration on the command line), lines of INFO and above
 * go to stderr through the JDK's console logger and {@code java.util.logging.LogManager} is not
 * created; once the application has created it, the same loggers write through it. {@link
 * System#getLogger} called from outside the JDK would create the {@code LogManager} at once, on the
 * agent's start thread, before a {@code main} that chooses its own ({@code
 * java.util.logging.manager}, as JBoss LogManager or Log4j's bridge ask) has run.
 */
final class QuietLoggers implements Function<String, System.Logger> {

  private final MethodHandle lazyLogger;
  private final Module module;

  private QuietLoggers(MethodHandle lazyLogger, Module module) {
    this.lazyLogger = lazyLogger;
    this.module = module;
  }

  /**
   * Points {@link Loggers} at the JDK's lazy loggers; returns null when done or the reason it could
   * not (then the agent's classes log through {@link System#getLogger}).
   */
  static String install(Instrumentation instrumentation, Module agentModule) {
    try {
      Module base = Object.class.getModule();
      if (!base.isExported("jdk.internal.logger", agentModule)) {
        if (!instrumentation.isModifiableModule(base)) {
          return "java.base cannot be modified by this JVM";
        }
        instrumentation.redefineModule(
            base,
            Set.of(),
            Map.of("jdk.internal.logger", Set.of(agentModule)),
            Map.of(),
            Set.of(),
            Map.of());
      }
      Class<?> lazyLoggers = Class.forName("jdk.internal.logger.LazyLoggers");
      MethodHandle lazyLogger =
          MethodHandles.lookup()
              .findStatic(
                  lazyLoggers,
                  "getLazyLogger",
                  MethodType.methodType(System.Logger.class, String.class, Module.class));
      // Fails here rather than at the first line logged.
      System.Logger probe =
          (System.Logger) lazyLogger.invokeExact(QuietLoggers.class.getName(), agentModule);
      if (probe == null) {
        return "jdk.internal.logger.LazyLoggers.getLazyLogger answered null";
      }
      QuietLoggers loggers = new QuietLoggers(lazyLogger, agentModule);
      Loggers.useSource(loggers);
      return null;
    } catch (Throwable e) {
      return e.toString();
    }
  }

  @Override
  public System.Logger apply(String name) {
    try {
      return (System.Logger) lazyLogger.invokeExact(name, module);
    } catch (Throwable e) {
      // Checked at install; a logger is never worth a failed class initialisation.
      return System.getLogger(name);
    }
  }
}
