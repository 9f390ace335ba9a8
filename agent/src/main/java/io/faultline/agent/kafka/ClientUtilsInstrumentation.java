package io.faultline.agent.kafka;

import static io.faultline.agent.instrumentation.MethodMatcher.isStatic;
import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.returns;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArgument;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.nestedIn;

import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.agent.weave.Advice;
import org.apache.kafka.common.config.AbstractConfig;

/**
 * Everything the agent weaves into kafka-clients' {@code ClientUtils}: the static {@code
 * createNetworkClient(AbstractConfig, ...)} overloads, through which kafka-clients 3.9.2 and 4.4.0
 * build the {@code NetworkClient} of producers, consumers (both group protocols) and admin clients.
 * Their first argument is the client's parsed configuration; the others differ between versions and
 * are not read.
 *
 * <p>Two advice on the same methods, each its module's: the check of the configuration ({@link
 * ConfigAdvisorModule}, required) and the timeouts that cap the reconnect gate ({@link
 * StaggerModule}, optional: without them the cap uses Kafka's defaults). They run once per client
 * built, and keeping them apart lets either feature be off, or unsupported, on its own.
 */
public final class ClientUtilsInstrumentation {

  static final String TYPE = "org.apache.kafka.clients.ClientUtils";

  private static final String ABSTRACT_CONFIG = "org.apache.kafka.common.config.AbstractConfig";

  private ClientUtilsInstrumentation() {}

  static TypeInstrumentation configAdvisor() {
    return TypeInstrumentation.forType(
        TYPE,
        AdviceBinding.of(
            named("createNetworkClient").and(isStatic()).and(takesArgument(0, ABSTRACT_CONFIG)),
            nestedIn(ClientUtilsInstrumentation.class, "ConfigCheckAdvice")));
  }

  static TypeInstrumentation stagger() {
    return TypeInstrumentation.forType(
        TYPE,
        new AdviceBinding(
            named("createNetworkClient")
                .and(takesArgument(0, ABSTRACT_CONFIG))
                .and(returns(NetworkClientInstrumentation.TYPE)),
            nestedIn(ClientUtilsInstrumentation.class, "TimeoutsAdvice"),
            false));
  }

  /** A client is being built with this configuration: it is checked once ({@link ConfigCheck}). */
  public static final class ConfigCheckAdvice {
    private ConfigCheckAdvice() {}

    /** On normal exit: the client's configuration. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(0) AbstractConfig config) {
      if (!ConfigAdvisorModule.SWITCH.active() || config == null) {
        return;
      }
      ConfigCheck.check(config.getClass().getName(), config.values(), config.originals());
    }
  }

  /**
   * Remembers the new client's timeouts (the configuration's parsed values, so Kafka's defaults are
   * filled in) for its reconnect gate's cap.
   */
  public static final class TimeoutsAdvice {
    private TimeoutsAdvice() {}

    /** On normal exit. */
    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(
        @Advice.Argument(0) Object config, @Advice.Return Object networkClient) {
      if (!StaggerModule.SWITCH.active() || !(config instanceof AbstractConfig)) {
        return;
      }
      KafkaClients.clientConfigured(networkClient, ((AbstractConfig) config).values());
    }
  }
}
