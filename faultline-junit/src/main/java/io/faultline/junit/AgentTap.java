package io.faultline.junit;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The bridge to the agent, when the test JVM runs with {@code -javaagent:faultline-agent.jar}. The
 * agent carries its own, relocated copy of core ({@code io.faultline.shaded.core}), so its findings
 * are objects of classes this code cannot name. Its copy of {@code Observations} takes and hands
 * out JDK types only ({@code BiConsumer<String, Map<String, Object>>}), so subscribing is one
 * reflective call on the class the agent's loader (the system class loader) defines: no agent type
 * crosses, nothing is loaded into the agent, and without the agent the class is simply absent.
 */
final class AgentTap {

  /** The agent's relocated copy of {@code io.faultline.core.observe.Observations}. */
  static final String RELOCATED = "io.faultline.shaded.core.observe.Observations";

  private AgentTap() {}

  /** Subscribes {@code subscriber} to the agent's observations; empty when no agent is attached. */
  static Optional<Runnable> subscribe(BiConsumer<String, Map<String, Object>> subscriber) {
    Class<?> observations;
    try {
      observations = Class.forName(RELOCATED, true, ClassLoader.getSystemClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return Optional.empty();
    }
    try {
      Method subscribe = observations.getMethod("subscribe", BiConsumer.class);
      return Optional.of((Runnable) subscribe.invoke(null, subscriber));
    } catch (ReflectiveOperationException | ClassCastException e) {
      // An agent of another version: say so rather than silently test without it.
      throw new IllegalStateException(
          "faultline-junit cannot subscribe to the Faultline agent attached to this JVM ("
              + e
              + "); use the agent and faultline-junit of the same version",
          e);
    }
  }
}
