package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;

/** {@code NetworkClient.close()}: forgets the client, its meters and its connections. */
public final class ClientCloseAdvice {

  private ClientCloseAdvice() {}

  /** On exit, however it ended. */
  @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
  public static void exit(@Advice.FieldValue("selector") Object selector) {
    if (!PhasesModule.SWITCH.active()
        && !ConnectionsModule.SWITCH.active()
        && !StaggerModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forSelector(selector);
    if (c != null) {
      c.close();
    }
  }
}
