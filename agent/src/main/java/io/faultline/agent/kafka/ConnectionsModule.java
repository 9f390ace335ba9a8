package io.faultline.agent.kafka;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * TCP facts of every broker connection (feature {@code kafka.tcp}) and their recycling: the
 * connections themselves are watched from their opening to their closing by {@link
 * ClientLifecycleModule} while this switch is on; this module weaves {@code
 * NetworkClient.poll(long, long)}, where the connections the recycler asked for are closed on the
 * client's own thread with {@code NetworkClient.disconnect(String)}, so in-flight requests fail
 * over and are retried by the client. Checked against kafka-clients 3.9.2 and 4.4.0.
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

  /** Only {@code NetworkClient}. */
  @Override
  public List<String> targetNames() {
    return List.of(NetworkClientInstrumentation.TYPE);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(NetworkClientInstrumentation.connections());
  }
}
