package io.faultline.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry points: {@code -javaagent:faultline-agent.jar[=key=value,...]} calls {@link
 * #premain}, a dynamic attach calls {@link #agentmain}. Both start the agent ({@link AgentStarter})
 * and never throw: whatever goes wrong is one {@code faultline:} line on stderr and the application
 * starts without Faultline.
 */
public final class FaultlineAgent {

  private FaultlineAgent() {}

  /** Called by the JVM before {@code main} for {@code -javaagent:}. */
  public static void premain(String agentArgs, Instrumentation instrumentation) {
    start(agentArgs, instrumentation, false);
  }

  /** Called by the JVM when the agent is attached to a running JVM. */
  public static void agentmain(String agentArgs, Instrumentation instrumentation) {
    start(agentArgs, instrumentation, true);
  }

  private static void start(String agentArgs, Instrumentation instrumentation, boolean attached) {
    try {
      AgentStarter.start(agentArgs, instrumentation, attached);
    } catch (Throwable e) {
      try {
        System.err.println(
            "faultline: the agent could not start and is off; the application runs without it: "
                + e);
      } catch (Throwable ignored) {
        // stderr closed: nothing left to tell
      }
    }
  }
}
