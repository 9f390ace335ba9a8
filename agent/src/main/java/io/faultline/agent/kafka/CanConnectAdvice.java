package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;

/** {@code ClusterConnectionStates.canConnect(String, long)}: false while the gate holds back. */
public final class CanConnectAdvice {

  private CanConnectAdvice() {}

  /** On normal exit. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(
      @Advice.This Object states,
      @Advice.Argument(0) String node,
      @Advice.Return(readOnly = false) boolean canConnect) {
    if (!canConnect || !StaggerModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forStates(states);
    if (c != null && c.connectDelayNanos(node, System.nanoTime()) > 0) {
      canConnect = false;
    }
  }
}
