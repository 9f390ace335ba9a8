package io.faultline.agent.kafka;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * The life cycle of kafka-clients' clients and their connections, which the request phases, the
 * connection monitor and the reconnect gate all follow: a client registered ({@code
 * NetworkClient.initiateConnect(Node, long)}, where the gate is asked too) and closed ({@code
 * NetworkClient.close()}), a connection opened ({@code Selector.buildAndAttachKafkaChannel}) and
 * closed ({@code Selector.close(KafkaChannel, CloseMode)}). Each method is woven once and its
 * advice serves whichever of {@link PhasesModule}, {@link ConnectionsModule} and {@link
 * StaggerModule} are active, so a socket's descriptor is looked up once for all of them. Installed
 * when any of their features is on. Checked against kafka-clients 3.9.2 and 4.4.0.
 */
public final class ClientLifecycleModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "kafka-clients-3.9-lifecycle";

  /** Its switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  /** Public for {@link java.util.ServiceLoader}. */
  public ClientLifecycleModule() {}

  @Override
  public String name() {
    return NAME;
  }

  /** The first of the features it serves; {@link #enabledIn} says when it is installed. */
  @Override
  public String feature() {
    return KafkaConfigKeys.PHASES_FEATURE;
  }

  /** When {@code kafka.phases}, {@code kafka.tcp} or {@code kafka.stagger} is on. */
  @Override
  public boolean enabledIn(FaultlineConfig config) {
    return config.isFeatureEnabled(KafkaConfigKeys.PHASES_FEATURE)
        || config.isFeatureEnabled(KafkaConfigKeys.TCP_FEATURE)
        || config.isFeatureEnabled(KafkaConfigKeys.STAGGER_FEATURE);
  }

  @Override
  public String disabledReason() {
    return "features kafka.phases, kafka.tcp and kafka.stagger are off";
  }

  /** {@code NetworkClient} and {@code Selector}. */
  @Override
  public List<String> targetNames() {
    return List.of(NetworkClientInstrumentation.TYPE, SelectorInstrumentation.TYPE);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(NetworkClientInstrumentation.lifecycle(), SelectorInstrumentation.lifecycle());
  }
}
