package io.faultline.agent.kafka;

import java.nio.ByteBuffer;
import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.network.KafkaChannel;
import org.apache.kafka.common.network.NetworkReceive;

/**
 * {@code Selector.addToCompletedReceives(KafkaChannel, NetworkReceive, long)}: a response is
 * complete; its correlation id is the first int of the payload (the response header).
 */
public final class CompletedReceiveAdvice {

  private CompletedReceiveAdvice() {}

  /** On entry. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter(
      @Advice.This Object selector,
      @Advice.Argument(0) KafkaChannel channel,
      @Advice.Argument(1) NetworkReceive receive) {
    if (!PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      ByteBuffer payload = receive.payload();
      int correlation = payload != null && payload.limit() >= 4 ? payload.getInt(0) : -1;
      c.responseCompleted(channel.id(), correlation, System.nanoTime());
    }
  }
}
