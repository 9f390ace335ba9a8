package io.faultline.agent.export;

/**
 * Points the agent's copy of Micrometer at {@link System.Logger} before any of its classes logs.
 * Left alone, Micrometer's internal logging looks for SLF4J, finds the application's (the agent's
 * jar is on the application's class path) and initialises the application's logging backend on the
 * agent's start thread: before {@code main} has configured it, and possibly while {@code main}
 * initialises the same classes. Its {@code java.util.logging} factory would do the same to {@code
 * java.util.logging}: the first logger it makes creates the {@code LogManager}, so a {@code main}
 * that chooses its own ({@code java.util.logging.manager}) would find the JDK's already in place.
 */
public final class MicrometerInternalLogging {

  private MicrometerInternalLogging() {}

  /** Call before the agent creates its first meter registry. */
  @SuppressWarnings("deprecation") // micrometer-core's own copy of the factory, still consulted
  public static void useSystemLogger() {
    io.micrometer.common.util.internal.logging.InternalLoggerFactory.setDefaultFactory(
        MicrometerSystemLogger.FACTORY);
    // Only micrometer-core's AOP aspects, which the agent never uses, still log through this copy;
    // set so that none of them could look for the application's SLF4J. A logger is made (and the
    // LogManager with it) only when one of them is used.
    io.micrometer.core.util.internal.logging.InternalLoggerFactory.setDefaultFactory(
        io.micrometer.core.util.internal.logging.JdkLoggerFactory.INSTANCE);
  }
}
