package io.faultline.agent.kafka;

import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArgument;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.nestedIn;

import io.faultline.agent.instrumentation.MethodMatcher;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.agent.weave.Advice;

/**
 * Everything the agent weaves into kafka-clients' {@code ClusterConnectionStates}, all for the
 * reconnect gate ({@link StaggerModule}): {@code canConnect(String, long)} and {@code
 * connectionDelay(String, long)} report the gate's wait to Kafka, {@code ready(String)} and {@code
 * disconnected(String, long)} tell the gate a node connected or was lost.
 */
public final class ConnectionStatesInstrumentation {

  static final String TYPE = "org.apache.kafka.clients.ClusterConnectionStates";

  private ConnectionStatesInstrumentation() {}

  static TypeInstrumentation stagger() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            nodeAndTime("canConnect"),
            nestedIn(ConnectionStatesInstrumentation.class, "CanConnectAdvice")),
        AdviceBinding.of(
            nodeAndTime("connectionDelay"),
            nestedIn(ConnectionStatesInstrumentation.class, "ConnectionDelayAdvice")),
        AdviceBinding.of(
            named("ready").and(takesArguments(1)).and(takesArgument(0, String.class)),
            nestedIn(ConnectionStatesInstrumentation.class, "ReadyAdvice")),
        AdviceBinding.of(
            nodeAndTime("disconnected"),
            nestedIn(ConnectionStatesInstrumentation.class, "DisconnectedAdvice")));
  }

  private static MethodMatcher nodeAndTime(String name) {
    return named(name)
        .and(takesArguments(2))
        .and(takesArgument(0, String.class))
        .and(takesArgument(1, long.class));
  }

  /** {@code canConnect(String, long)}: false while the gate holds the node back. */
  public static final class CanConnectAdvice {
    private CanConnectAdvice() {}

    /** On normal exit. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.This Object states,
        @Advice.Argument(0) String node,
        @Advice.Return(readOnly = false) boolean canConnect) {
      if (!canConnect || !StaggerModule.SWITCH.active()) {
        return;
      }
      KafkaClient c = KafkaClients.forStates(states);
      if (c != null && c.connectDelayNanos(node) > 0) {
        canConnect = false;
      }
    }
  }

  /** {@code connectionDelay(String, long)}: at least the gate's wait. */
  public static final class ConnectionDelayAdvice {
    private ConnectionDelayAdvice() {}

    /** On normal exit. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.This Object states,
        @Advice.Argument(0) String node,
        @Advice.Return(readOnly = false) long delayMs) {
      if (!StaggerModule.SWITCH.active()) {
        return;
      }
      KafkaClient c = KafkaClients.forStates(states);
      if (c == null) {
        return;
      }
      long waitNanos = c.connectDelayNanos(node);
      if (waitNanos > 0) {
        delayMs = Math.max(delayMs, (waitNanos + 999_999) / 1_000_000);
      }
    }
  }

  /** {@code ready(String)}: the node is connected. */
  public static final class ReadyAdvice {
    private ReadyAdvice() {}

    /** On normal exit. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object states, @Advice.Argument(0) String node) {
      if (!StaggerModule.SWITCH.active()) {
        return;
      }
      KafkaClient c = KafkaClients.forStates(states);
      if (c != null) {
        c.nodeConnected(node, System.nanoTime());
      }
    }
  }

  /** {@code disconnected(String, long)}: the node was lost. */
  public static final class DisconnectedAdvice {
    private DisconnectedAdvice() {}

    /** On normal exit. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object states, @Advice.Argument(0) String node) {
      if (!StaggerModule.SWITCH.active()) {
        return;
      }
      KafkaClient c = KafkaClients.forStates(states);
      if (c != null) {
        c.nodeDisconnected(node, System.nanoTime());
      }
    }
  }
}
