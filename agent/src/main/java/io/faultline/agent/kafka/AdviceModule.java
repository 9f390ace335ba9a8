package io.faultline.agent.kafka;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.kafka.KafkaConfigKeys;
import java.util.List;

/**
 * Configuration advice at client construction (feature {@code kafka.advice}): every overload of the
 * static {@code ClientUtils.createNetworkClient(AbstractConfig, ...)}, through which kafka-clients
 * 3.9.2 and 4.4.0 build the {@code NetworkClient} of producers ({@code KafkaProducer}), consumers
 * ({@code ConsumerUtils}, both group protocols) and admin clients ({@code KafkaAdminClient}). Its
 * first argument is the client's parsed configuration; the other arguments differ between versions
 * and are not read.
 */
public final class AdviceModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "kafka-clients-3.9-advice";

  /** Its switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  static final String CLIENT_UTILS = "org.apache.kafka.clients.ClientUtils";

  /** Public for {@link java.util.ServiceLoader}. */
  public AdviceModule() {}

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
  public boolean mayWeave(String className, ClassLoader loader, byte[] classFile) {
    return className.equals(CLIENT_UTILS);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(
        TypeInstrumentation.forType(
            CLIENT_UTILS,
            AdviceBinding.of(
                named("createNetworkClient")
                    .and(isStatic())
                    .and(takesArgument(0, named("org.apache.kafka.common.config.AbstractConfig"))),
                ClientCreatedAdvice.class.getName())));
  }
}
