package io.faultline.it.agent.app;

/**
 * An application that configures its SLF4J backend (slf4j-simple) in {@code main}, after the agent
 * has installed, as a service that sets its logging properties at start does; then logs one line.
 */
public final class LoggingConfiguredInMainApp {

  private LoggingConfiguredInMainApp() {}

  /** Waits for the agent, configures slf4j-simple through system properties, logs a warning. */
  public static void main(String[] args) throws Exception {
    AgentReady.await();
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.out");
    System.setProperty("org.slf4j.simpleLogger.showThreadName", "false");
    System.setProperty("org.slf4j.simpleLogger.levelInBrackets", "true");
    org.slf4j.LoggerFactory.getLogger("app").warn("configured by main");
  }
}
