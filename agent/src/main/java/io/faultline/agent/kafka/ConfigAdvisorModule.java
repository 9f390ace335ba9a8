package io.faultline.agent.kafka;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * Configuration advice at client construction (feature {@code kafka.advice}): each producer,
 * consumer and admin client's configuration is checked once, when {@code
 * ClientUtils.createNetworkClient(AbstractConfig, ...)} builds its {@code NetworkClient} ({@link
 * ClientUtilsInstrumentation}, {@link ConfigCheck}). The module keeps its name, {@code
 * kafka-clients-3.9-advice}, for the dashboards and alerts that select it.
 */
public final class ConfigAdvisorModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "kafka-clients-3.9-advice";

  /** Its switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  /** Public for {@link java.util.ServiceLoader}. */
  public ConfigAdvisorModule() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return KafkaConfigKeys.ADVICE_FEATURE;
  }

  /** Only {@code ClientUtils}, the one class it weaves. */
  @Override
  public List<String> targetNames() {
    return List.of(ClientUtilsInstrumentation.TYPE);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(ClientUtilsInstrumentation.configAdvisor());
  }
}
