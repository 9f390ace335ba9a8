package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.network.KafkaChannel;

/** {@code Selector.close(KafkaChannel, CloseMode)}: the monitor stops watching the connection. */
public final class MonitorChannelCloseAdvice {

  private MonitorChannelCloseAdvice() {}

  /** On entry. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter(@Advice.This Object selector, @Advice.Argument(0) KafkaChannel channel) {
    if (!ConnectionsModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      c.monitorChannelClosed(channel.id());
    }
  }
}
