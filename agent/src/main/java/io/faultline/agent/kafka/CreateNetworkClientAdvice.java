package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.config.AbstractConfig;

/**
 * {@code ClientUtils.createNetworkClient(AbstractConfig, ...)}: remembers the new client's timeouts
 * (the configuration's parsed values, so Kafka's defaults are filled in) for its reconnect gate's
 * cap. Every kafka-clients producer, consumer (classic and async) and admin client builds its
 * {@code NetworkClient} here, in 3.9 and 4.x.
 */
public final class CreateNetworkClientAdvice {

  private CreateNetworkClientAdvice() {}

  /** On normal exit. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(@Advice.Argument(0) Object config, @Advice.Return Object networkClient) {
    if (!StaggerModule.SWITCH.active() || !(config instanceof AbstractConfig)) {
      return;
    }
    KafkaClients.clientConfigured(networkClient, ((AbstractConfig) config).values());
  }
}
