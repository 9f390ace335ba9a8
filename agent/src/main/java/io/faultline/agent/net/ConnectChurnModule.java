package io.faultline.agent.net;

import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArgument;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.besides;

import io.faultline.agent.instrumentation.BytePattern;
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

  private static final BytePattern SOCKET = BytePattern.of("java/net/Socket");
  private static final BytePattern SOCKET_CHANNEL =
      BytePattern.of("java/nio/channels/SocketChannel");

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
   * Application classes that name a JDK socket type (they may connect as soon as they run), so
   * their first connect is counted. The JDK's socket classes themselves never wait: the agent's
   * start thread may need them while the woven classes are retransformed; they are woven by
   * retransformation, and a connect the JDK makes on its own in the first moments is not counted.
   */
  @Override
  public boolean mayWeave(String className, ClassLoader loader, byte[] classFile) {
    return loader != null && (SOCKET.foundIn(classFile) || SOCKET_CHANNEL.foundIn(classFile));
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(
        TypeInstrumentation.forType(
            "java.net.Socket",
            AdviceBinding.of(
                named("connect")
                    .and(takesArguments(2))
                    .and(takesArgument(0, java.net.SocketAddress.class))
                    .and(takesArgument(1, int.class)),
                besides(ConnectChurnModule.class, "SocketConnectAdvice"))),
        TypeInstrumentation.forType(
            "sun.nio.ch.SocketChannelImpl",
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
