package io.faultline.agent.kafka;

import io.faultline.agent.AgentConfigKeys;
import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.host.HostConfigKeys;
import java.util.List;

/**
 * On a Kafka broker, the client id behind each accepted connection ({@link
 * RequestContextInstrumentation}), so that {@code CLIENTS_WITHOUT_WINDOW_SCALING} names clients by
 * id as well as address. Installed with the host doctor's sweep of accepted connections ({@code
 * doctor.clients-interval} above 0); it weaves one class, which only a broker constructs.
 */
public final class BrokerClientIdsModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "kafka-broker-client-ids";

  /** Its switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  /** Public for {@link java.util.ServiceLoader}. */
  public BrokerClientIdsModule() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return HostConfigKeys.FEATURE;
  }

  /** With the doctor and its sweep of accepted connections on. */
  @Override
  public boolean enabledIn(FaultlineConfig config) {
    return config.isFeatureEnabled(HostConfigKeys.FEATURE)
        && !config.get(AgentConfigKeys.CLIENTS_INTERVAL).isZero();
  }

  @Override
  public String disabledReason() {
    return "feature doctor is off or doctor.clients-interval is 0s";
  }

  /** Only {@code RequestContext}, the one class it weaves. */
  @Override
  public List<String> targetNames() {
    return List.of(RequestContextInstrumentation.TYPE);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(RequestContextInstrumentation.clientIds());
  }
}
