package io.faultline.agent.kafka;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * The reconnect gate (feature {@code kafka.stagger}), checked against kafka-clients 3.9.2 and
 * 4.4.0:
 *
 * <ul>
 *   <li>{@code NetworkClient.initiateConnect(Node, long)}: asks the gate; a denied initiation is
 *       skipped (nothing else happens in that method before the socket opens);
 *   <li>{@code ClusterConnectionStates.canConnect(String, long)} and {@code connectionDelay(String,
 *       long)}: a held-back node is not connectable, and its delay is the gate's, so the client's
 *       poll sleeps until then instead of spinning and {@code ready()} retries exactly then;
 *   <li>{@code ClusterConnectionStates.ready(String)} / {@code disconnected(String, long)}: the
 *       node connected / was lost (every disconnect path of {@code NetworkClient} ends there);
 *   <li>{@code ClientUtils.createNetworkClient(AbstractConfig, ...)}: the client's own {@code
 *       request.timeout.ms}, {@code delivery.timeout.ms} and {@code max.poll.interval.ms}, which
 *       cap its window. Optional: without it the cap uses Kafka's default timeouts.
 * </ul>
 */
public final class StaggerModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "kafka-clients-3.9-stagger";

  static final String CLIENT_UTILS = "org.apache.kafka.clients.ClientUtils";

  /** Its switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  /** Public for {@link java.util.ServiceLoader}. */
  public StaggerModule() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return KafkaConfigKeys.STAGGER_FEATURE;
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
            AdviceBinding.of(PhasesModule.initiateConnect(), InitiateConnectAdvice.class.getName()),
            AdviceBinding.of(PhasesModule.clientClose(), ClientCloseAdvice.class.getName())),
        TypeInstrumentation.forType(
            PhasesModule.CONNECTION_STATES,
            AdviceBinding.of(nodeAndTime("canConnect"), CanConnectAdvice.class.getName()),
            AdviceBinding.of(nodeAndTime("connectionDelay"), ConnectionDelayAdvice.class.getName()),
            AdviceBinding.of(
                named("ready").and(takesArguments(1)).and(takesArgument(0, String.class)),
                StatesReadyAdvice.class.getName()),
            AdviceBinding.of(
                nodeAndTime("disconnected"), StatesDisconnectedAdvice.class.getName())),
        TypeInstrumentation.forType(
            CLIENT_UTILS,
            new AdviceBinding(
                named("createNetworkClient")
                    .and(takesArgument(0, named("org.apache.kafka.common.config.AbstractConfig")))
                    .and(returns(named(PhasesModule.NETWORK_CLIENT))),
                CreateNetworkClientAdvice.class.getName(),
                false)));
  }

  private static net.bytebuddy.matcher.ElementMatcher.Junction<
          net.bytebuddy.description.method.MethodDescription>
      nodeAndTime(String name) {
    return named(name)
        .and(takesArguments(2))
        .and(takesArgument(0, String.class))
        .and(takesArgument(1, long.class));
  }
}
