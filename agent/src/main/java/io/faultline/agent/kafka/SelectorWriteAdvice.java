package io.faultline.agent.kafka;

import java.util.List;
import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.network.KafkaChannel;
import org.apache.kafka.common.network.NetworkSend;

/**
 * {@code Selector.write(KafkaChannel)}: lets {@link ChannelWriteAdvice} see the client, and reports
 * a completed send (a new entry in {@code completedSends}) with its size and the connection's
 * socket (adopted when its opening came before the agent's weave).
 */
public final class SelectorWriteAdvice {

  private SelectorWriteAdvice() {}

  /** On entry: the number of completed sends so far, or -1 when the client is unknown. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static int enter(
      @Advice.This Object selector, @Advice.FieldValue("completedSends") List<?> completedSends) {
    if (!PhasesModule.SWITCH.active()) {
      return -1;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c == null) {
      return -1;
    }
    ChannelWrites.begin(c);
    return completedSends.size();
  }

  /** On exit, also when the write threw (the send then did not complete). */
  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void exit(
      @Advice.Enter int sendsBefore,
      @Advice.This Object selector,
      @Advice.Argument(0) KafkaChannel channel,
      @Advice.FieldValue("completedSends") List<?> completedSends) {
    if (sendsBefore < 0) {
      return;
    }
    ChannelWrites.end();
    int now = completedSends.size();
    if (now > sendsBefore && PhasesModule.SWITCH.active()) {
      KafkaClient c = KafkaClients.forSelector(selector);
      if (c != null) {
        NetworkSend send = (NetworkSend) completedSends.get(now - 1);
        c.sendCompleted(channel.id(), send.size(), System.nanoTime());
        c.sawChannel(channel.id(), channel.selectionKey().channel());
      }
    }
  }
}
