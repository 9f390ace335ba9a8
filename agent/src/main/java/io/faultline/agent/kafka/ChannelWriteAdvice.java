package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.network.KafkaChannel;

/** {@code KafkaChannel.write()}: bytes were handed to the socket (only inside Selector.write). */
public final class ChannelWriteAdvice {

  private ChannelWriteAdvice() {}

  /** On normal exit, with the bytes written. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(@Advice.This KafkaChannel channel, @Advice.Return long written) {
    if (written <= 0 || !PhasesModule.SWITCH.active()) {
      return;
    }
    ChannelWrites.written(channel.id(), written, System.nanoTime());
  }
}
