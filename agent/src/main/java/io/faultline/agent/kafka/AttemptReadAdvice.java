package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.network.KafkaChannel;

/**
 * {@code Selector.attemptRead(KafkaChannel)}: called when response bytes wait on the socket; the
 * first call for a response marks its start (later calls for the same response change nothing).
 */
public final class AttemptReadAdvice {

  private AttemptReadAdvice() {}

  /** On entry. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter(@Advice.This Object selector, @Advice.Argument(0) KafkaChannel channel) {
    if (!PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      c.responseStarted(channel.id(), System.nanoTime());
    }
  }
}
