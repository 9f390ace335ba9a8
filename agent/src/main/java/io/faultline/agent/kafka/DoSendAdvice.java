package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.clients.ClientRequest;

/**
 * {@code NetworkClient.doSend(ClientRequest, boolean, long, AbstractRequest)}: the request is
 * created and handed to the selector; reported on normal exit, timed at entry.
 */
public final class DoSendAdvice {

  private DoSendAdvice() {}

  /** On entry: the time. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static long enter() {
    if (!PhasesModule.SWITCH.active()) {
      return 0L;
    }
    return System.nanoTime();
  }

  /** On normal exit: the request is in flight. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(
      @Advice.Enter long start,
      @Advice.This Object client,
      @Advice.FieldValue("selector") Object selector,
      @Advice.FieldValue("connectionStates") Object states,
      @Advice.FieldValue("clientId") String clientId,
      @Advice.Argument(0) ClientRequest request) {
    if (start == 0L || !PhasesModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.register(client, selector, states, clientId);
    if (c != null) {
      c.requestCreated(
          request.destination(),
          request.correlationId(),
          request.apiKey().id,
          request.expectResponse(),
          start);
    }
  }
}
