package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;

/** {@code NetworkClient.initiateConnect}: registers the client before its first socket opens. */
public final class ConnectionsRegisterAdvice {

  private ConnectionsRegisterAdvice() {}

  /** On entry. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter(
      @Advice.This Object client,
      @Advice.FieldValue("selector") Object selector,
      @Advice.FieldValue("connectionStates") Object states,
      @Advice.FieldValue("clientId") String clientId) {
    if (!ConnectionsModule.SWITCH.active()) {
      return;
    }
    KafkaClients.register(client, selector, states, clientId);
  }
}
