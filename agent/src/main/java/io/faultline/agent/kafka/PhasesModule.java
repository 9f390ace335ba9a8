package io.faultline.agent.kafka;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * Request phases of every kafka-clients {@code NetworkClient} (feature {@code kafka.phases}),
 * checked against kafka-clients 3.9.2 and 4.4.0, where every method below has the same signature:
 *
 * <ul>
 *   <li>{@code NetworkClient.initiateConnect(Node, long)}: registers the client;
 *   <li>{@code NetworkClient.doSend(ClientRequest, boolean, long, AbstractRequest)}: request
 *       created;
 *   <li>{@code Selector.write(KafkaChannel)} and {@code KafkaChannel.write()}: bytes handed to the
 *       socket, send completed;
 *   <li>{@code Selector.attemptRead(KafkaChannel)}: response bytes arrived;
 *   <li>{@code Selector.addToCompletedReceives(KafkaChannel, NetworkReceive, long)}: response
 *       complete;
 *   <li>{@code Selector.buildAndAttachKafkaChannel(SocketChannel, String, SelectionKey)} and {@code
 *       Selector.close(KafkaChannel, CloseMode)}: the socket (for delivery via TCP_INFO) opens and
 *       closes;
 *   <li>{@code NetworkClient.close()}: the client goes away.
 * </ul>
 */
public final class PhasesModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "kafka-clients-3.9-phases";

  /** Its switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  static final String NETWORK_CLIENT = "org.apache.kafka.clients.NetworkClient";
  static final String SELECTOR = "org.apache.kafka.common.network.Selector";
  static final String KAFKA_CHANNEL = "org.apache.kafka.common.network.KafkaChannel";
  static final String CONNECTION_STATES = "org.apache.kafka.clients.ClusterConnectionStates";

  /** Public for {@link java.util.ServiceLoader}. */
  public PhasesModule() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return KafkaConfigKeys.PHASES_FEATURE;
  }

  /** kafka-clients' classes. */
  @Override
  public boolean mayWeave(String className, ClassLoader loader, byte[] classFile) {
    return className.startsWith("org.apache.kafka.");
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(
        TypeInstrumentation.forType(
            NETWORK_CLIENT,
            AdviceBinding.of(initiateConnect(), PhasesRegisterAdvice.class.getName()),
            AdviceBinding.of(
                named("doSend")
                    .and(takesArguments(4))
                    .and(takesArgument(0, named("org.apache.kafka.clients.ClientRequest"))),
                DoSendAdvice.class.getName()),
            AdviceBinding.of(clientClose(), ClientCloseAdvice.class.getName())),
        TypeInstrumentation.forType(
            SELECTOR,
            AdviceBinding.of(
                named("write").and(takesArguments(1)).and(takesArgument(0, named(KAFKA_CHANNEL))),
                SelectorWriteAdvice.class.getName()),
            AdviceBinding.of(
                named("attemptRead").and(takesArguments(1)), AttemptReadAdvice.class.getName()),
            AdviceBinding.of(
                named("addToCompletedReceives").and(takesArguments(3)),
                CompletedReceiveAdvice.class.getName()),
            AdviceBinding.of(attachChannel(), PhasesChannelOpenAdvice.class.getName()),
            AdviceBinding.of(channelClose(), PhasesChannelCloseAdvice.class.getName())),
        TypeInstrumentation.forType(
            KAFKA_CHANNEL,
            AdviceBinding.of(
                named("write").and(takesArguments(0)), ChannelWriteAdvice.class.getName())));
  }

  static net.bytebuddy.matcher.ElementMatcher.Junction<
          net.bytebuddy.description.method.MethodDescription>
      initiateConnect() {
    return named("initiateConnect")
        .and(takesArguments(2))
        .and(takesArgument(0, named("org.apache.kafka.common.Node")));
  }

  static net.bytebuddy.matcher.ElementMatcher.Junction<
          net.bytebuddy.description.method.MethodDescription>
      clientClose() {
    return named("close").and(takesArguments(0));
  }

  static net.bytebuddy.matcher.ElementMatcher.Junction<
          net.bytebuddy.description.method.MethodDescription>
      attachChannel() {
    return named("buildAndAttachKafkaChannel")
        .and(takesArguments(3))
        .and(takesArgument(0, named("java.nio.channels.SocketChannel")));
  }

  static net.bytebuddy.matcher.ElementMatcher.Junction<
          net.bytebuddy.description.method.MethodDescription>
      channelClose() {
    return named("close").and(takesArguments(2)).and(takesArgument(0, named(KAFKA_CHANNEL)));
  }
}
