package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;

/** {@code ClusterConnectionStates.disconnected(String, long)}: the node was lost. */
public final class StatesDisconnectedAdvice {

  private StatesDisconnectedAdvice() {}

  /** On normal exit. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(@Advice.This Object states, @Advice.Argument(0) String node) {
    if (!StaggerModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forStates(states);
    if (c != null) {
      c.nodeDisconnected(node, System.nanoTime());
    }
  }
}
