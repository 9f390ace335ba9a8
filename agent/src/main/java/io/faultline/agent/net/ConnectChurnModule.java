package io.faultline.agent.net;

import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArgument;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.besides;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.core.net.churn.ChurnKeys;
import java.util.List;

/**
 * Counts every new outbound TCP connection of the JVM, whatever library opens it, by weaving exit
 * advice into the two places the JDK connects: {@code java.net.Socket.connect(SocketAddress, int)}
 * (classic sockets: JDBC drivers, {@code HttpURLConnection}; every other {@code Socket.connect}
 * overload and constructor ends there) and {@code sun.nio.ch.SocketChannelImpl} ({@code connect},
 * {@code finishConnect} for non-blocking connects — Kafka, {@code java.net.http} — and {@code
 * blockingConnect}, which a channel's socket adaptor uses instead of {@code Socket.connect}). These
 * are {@code java.base} classes, so the module opts in to bootstrap targets and its advice calls
 * {@code io.faultline.bootstrap.ConnectHook}, which {@link ChurnTracking} points at the counter.
 */
public final class ConnectChurnModule implements InstrumentationModule {

  private static final String SOCKET = "java.net.Socket";
  private static final String SOCKET_CHANNEL_IMPL = "sun.nio.ch.SocketChannelImpl";

  /** The module name: the {@code module} tag of {@code faultline.agent.errors}. */
  public static final String NAME = "jdk-socket-connect";

  /** The module's switch, checked by {@link ChurnTracking} behind the bridge. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  static final String HOOK_CLASS = "io.faultline.bootstrap.ConnectHook";

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public ConnectChurnModule() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return ChurnKeys.FEATURE;
  }

  @Override
  public List<String> bootstrapClasses() {
    return List.of(HOOK_CLASS);
  }

  /**
   * The two JDK classes it weaves. Those already loaded are retransformed when the module is
   * installed; one that an application thread loads after that, while the agent is still starting,
   * loads unwoven like every class of the start and is retransformed when the start ends. A connect
   * made before then is not counted.
   */
  @Override
  public List<String> targetNames() {
    return List.of(SOCKET, SOCKET_CHANNEL_IMPL);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(
        TypeInstrumentation.forType(
            SOCKET,
            AdviceBinding.of(
                named("connect")
                    .and(takesArguments(2))
                    .and(takesArgument(0, java.net.SocketAddress.class))
                    .and(takesArgument(1, int.class)),
                besides(ConnectChurnModule.class, "SocketConnectAdvice"))),
        TypeInstrumentation.forType(
            SOCKET_CHANNEL_IMPL,
            AdviceBinding.of(
                named("connect").and(takesArguments(1)),
                besides(ConnectChurnModule.class, "ChannelConnectAdvice")),
            AdviceBinding.of(
                named("finishConnect").and(takesArguments(0)),
                besides(ConnectChurnModule.class, "ChannelFinishConnectAdvice")),
            AdviceBinding.of(
                named("blockingConnect").and(takesArguments(2)),
                besides(ConnectChurnModule.class, "ChannelBlockingConnectAdvice"))));
  }
}
