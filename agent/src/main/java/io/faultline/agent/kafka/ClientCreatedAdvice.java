package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.config.AbstractConfig;

/**
 * {@code ClientUtils.createNetworkClient(AbstractConfig, ...)} returned: a producer, consumer or
 * admin client is being built with this configuration; its advice is checked once.
 */
public final class ClientCreatedAdvice {

  private ClientCreatedAdvice() {}

  /** On normal exit: the client's configuration. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(@Advice.Argument(0) AbstractConfig config) {
    if (!AdviceModule.SWITCH.active() || config == null) {
      return;
    }
    ConstructionAdvice.check(config.getClass().getName(), config.values(), config.originals());
  }
}
