package io.faultline.agent.kafka;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * The reconnect gate (feature {@code kafka.stagger}), checked against kafka-clients 3.9.2 and
 * 4.4.0:
 *
 * <ul>
 *   <li>{@code NetworkClient.initiateConnect(Node, long)} (woven by {@link ClientLifecycleModule},
 *       which asks the gate while this switch is on): a denied initiation is skipped (nothing else
 *       happens in that method before the socket opens);
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

  /** {@code ClusterConnectionStates} and {@code ClientUtils}. */
  @Override
  public List<String> targetNames() {
    return List.of(ConnectionStatesInstrumentation.TYPE, ClientUtilsInstrumentation.TYPE);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(ConnectionStatesInstrumentation.stagger(), ClientUtilsInstrumentation.stagger());
  }
}
