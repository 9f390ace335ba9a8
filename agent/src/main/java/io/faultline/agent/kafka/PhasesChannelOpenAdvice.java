package io.faultline.agent.kafka;

import java.nio.channels.SocketChannel;
import net.bytebuddy.asm.Advice;

/** {@code Selector.buildAndAttachKafkaChannel}: a node's socket, for delivery sampling. */
public final class PhasesChannelOpenAdvice {

  private PhasesChannelOpenAdvice() {}

  /** On normal exit. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(
      @Advice.This Object selector,
      @Advice.Argument(0) SocketChannel socket,
      @Advice.Argument(1) String node) {
    if (!PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      c.phasesChannelOpened(node, socket);
    }
  }
}
