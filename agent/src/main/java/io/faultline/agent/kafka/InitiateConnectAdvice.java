package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;
import org.apache.kafka.common.Node;

/**
 * {@code NetworkClient.initiateConnect(Node, long)}: asks the client's reconnect gate; when it says
 * wait, the method is skipped and {@link CanConnectAdvice}/{@link ConnectionDelayAdvice} report the
 * wait to Kafka.
 */
public final class InitiateConnectAdvice {

  private InitiateConnectAdvice() {}

  /** On entry: {@code true} skips the connection initiation. */
  @Advice.OnMethodEnter(suppress = Throwable.class, skipOn = Advice.OnNonDefaultValue.class)
  public static boolean enter(
      @Advice.This Object client,
      @Advice.FieldValue("selector") Object selector,
      @Advice.FieldValue("connectionStates") Object states,
      @Advice.FieldValue("clientId") String clientId,
      @Advice.Argument(0) Node node) {
    if (!StaggerModule.SWITCH.active()) {
      return false;
    }
    KafkaClient c = KafkaClients.register(client, selector, states, clientId);
    return c != null && !c.admitConnect(node.idString(), System.nanoTime());
  }
}
