package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.network.KafkaChannel;

/** {@code Selector.close(KafkaChannel, CloseMode)}: what was in flight on it is forgotten. */
public final class PhasesChannelCloseAdvice {

  private PhasesChannelCloseAdvice() {}

  /** On entry. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter(@Advice.This Object selector, @Advice.Argument(0) KafkaChannel channel) {
    if (!PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      c.phasesChannelClosed(channel.id());
    }
  }
}
