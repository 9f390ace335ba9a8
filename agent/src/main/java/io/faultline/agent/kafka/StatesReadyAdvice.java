package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;

/** {@code ClusterConnectionStates.ready(String)}: the node is connected. */
public final class StatesReadyAdvice {

  private StatesReadyAdvice() {}

  /** On normal exit. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(@Advice.This Object states, @Advice.Argument(0) String node) {
    if (!StaggerModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forStates(states);
    if (c != null) {
      c.nodeConnected(node, System.nanoTime());
    }
  }
}
