package io.faultline.agent;

/**
 * How the agent's start went for the application.
 *
 * @param applicationNanos time application threads spent inside Faultline's class-file transformer
 *     while the agent was starting
 * @param lateWoven classes that loaded before the modules were installed and were woven afterwards
 * @param installMillis how long the installation took on the agent's own thread
 */
public record AgentStartup(long applicationNanos, int lateWoven, long installMillis) {

  /** Above this, the agent reports the start-up time it took from the application on stderr. */
  static final long REPORT_ABOVE_NANOS = 100_000_000L;

  /** Not finished (or no instrumentation). */
  static final AgentStartup NONE = new AgentStartup(0, 0, 0);

  /** The application's time in seconds. */
  public double applicationSeconds() {
    return applicationNanos / 1e9;
  }
}
