package io.faultline.it.agent.app;

import java.util.logging.LogManager;

/**
 * An application that chooses its {@code java.util.logging} log manager in {@code main} (as a
 * service on JBoss LogManager or Log4j's bridge for {@code java.util.logging} may), after the agent
 * has started in full; prints the log manager in place, then logs one line through it.
 */
public final class LogManagerChosenInMainApp {

  private LogManagerChosenInMainApp() {}

  /** The application's own log manager. */
  public static final class OwnLogManager extends LogManager {
    /** Made by {@link LogManager} from {@code java.util.logging.manager}. */
    public OwnLogManager() {
      super();
    }
  }

  /** Waits for the agent's whole start, sets {@code java.util.logging.manager}, reports. */
  public static void main(String[] args) throws Exception {
    AgentReady.awaitFirstDoctorRun();
    System.setProperty("java.util.logging.manager", OwnLogManager.class.getName());
    System.out.println("log-manager=" + LogManager.getLogManager().getClass().getName());
    System.getLogger("app").log(System.Logger.Level.WARNING, "logged by main");
  }
}
