package io.faultline.agent.export;

/**
 * Points the agent's copy of Micrometer at {@code java.util.logging} before any of its classes
 * logs. Left alone, Micrometer's internal logging looks for SLF4J, finds the application's (the
 * agent's jar is on the application's class path) and initialises the application's logging backend
 * on the agent's start thread: before {@code main} has configured it, and possibly while {@code
 * main} initialises the same classes.
 */
public final class MicrometerInternalLogging {

  private MicrometerInternalLogging() {}

  /** Call before the agent creates its first meter registry. */
  @SuppressWarnings("deprecation") // micrometer-core's own copy of the factory, still consulted
  public static void useJdkLogging() {
    io.micrometer.common.util.internal.logging.InternalLoggerFactory.setDefaultFactory(
        io.micrometer.common.util.internal.logging.JdkLoggerFactory.INSTANCE);
    io.micrometer.core.util.internal.logging.InternalLoggerFactory.setDefaultFactory(
        io.micrometer.core.util.internal.logging.JdkLoggerFactory.INSTANCE);
  }
}
