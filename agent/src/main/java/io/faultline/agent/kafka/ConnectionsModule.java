package io.faultline.agent.kafka;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * TCP facts of every broker connection (feature {@code kafka.tcp}) and their recycling, checked
 * against kafka-clients 3.9.2 and 4.4.0:
 *
 * <ul>
 *   <li>{@code NetworkClient.initiateConnect(Node, long)}: registers the client;
 *   <li>{@code Selector.buildAndAttachKafkaChannel(SocketChannel, String, SelectionKey)} / {@code
 *       Selector.close(KafkaChannel, CloseMode)}: a connection is watched / no longer;
 *   <li>{@code NetworkClient.poll(long, long)}: on the client's own thread, closes the connections
 *       the recycler asked for with {@code NetworkClient.disconnect(String)}, so in-flight requests
 *       fail over and are retried by the client;
 *   <li>{@code NetworkClient.close()}: the client goes away.
 * </ul>
 */
public final class ConnectionsModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "kafka-clients-3.9-connections";

  /** Its switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  /** Public for {@link java.util.ServiceLoader}. */
  public ConnectionsModule() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return KafkaConfigKeys.TCP_FEATURE;
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
            PhasesModule.NETWORK_CLIENT,
            AdviceBinding.of(
                PhasesModule.initiateConnect(), ConnectionsRegisterAdvice.class.getName()),
            AdviceBinding.of(named("poll").and(takesArguments(2)), RecycleAdvice.class.getName()),
            AdviceBinding.of(PhasesModule.clientClose(), ClientCloseAdvice.class.getName())),
        TypeInstrumentation.forType(
            PhasesModule.SELECTOR,
            AdviceBinding.of(
                PhasesModule.attachChannel(), MonitorChannelOpenAdvice.class.getName()),
            AdviceBinding.of(
                PhasesModule.channelClose(), MonitorChannelCloseAdvice.class.getName())));
  }
}
