package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.clients.NetworkClient;

/**
 * {@code NetworkClient.poll(long, long)}, on entry: closes, on the client's own thread, the
 * connections the recycler asked to close, through the client's own {@code disconnect(String)}.
 */
public final class RecycleAdvice {

  private RecycleAdvice() {}

  /** On entry. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter(
      @Advice.This NetworkClient client, @Advice.FieldValue("selector") Object selector) {
    if (!ConnectionsModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c == null) {
      return;
    }
    for (String node : c.takeRecycleRequests()) {
      client.disconnect(node);
    }
  }
}
