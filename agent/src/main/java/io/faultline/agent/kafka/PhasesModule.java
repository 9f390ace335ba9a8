package io.faultline.agent.kafka;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * Request phases of every kafka-clients {@code NetworkClient} (feature {@code kafka.phases}): a
 * request created ({@code NetworkClient.doSend}), its bytes handed to the socket ({@code
 * Selector.write}, {@code KafkaChannel.write()}, over TLS {@code SslTransportLayer.flush}), its
 * response started and completed ({@code Selector.attemptRead}, {@code addToCompletedReceives}).
 * Clients and their sockets come from {@link ClientLifecycleModule}. Every method was checked
 * against kafka-clients 3.9.2 and 4.4.0; the advice is in the type's instrumentation class.
 */
public final class PhasesModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "kafka-clients-3.9-phases";

  /** Its switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

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

  /** The four kafka-clients classes whose calls make up a request's phases. */
  @Override
  public List<String> targetNames() {
    return List.of(
        NetworkClientInstrumentation.TYPE,
        SelectorInstrumentation.TYPE,
        KafkaChannelInstrumentation.TYPE,
        SslTransportLayerInstrumentation.TYPE);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(
        NetworkClientInstrumentation.phases(),
        SelectorInstrumentation.phases(),
        KafkaChannelInstrumentation.phases(),
        SslTransportLayerInstrumentation.phases());
  }
}
