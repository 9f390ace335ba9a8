package io.faultline.agent.kafka;

import net.bytebuddy.asm.Advice;

/** {@code ClusterConnectionStates.connectionDelay(String, long)}: at least the gate's wait. */
public final class ConnectionDelayAdvice {

  private ConnectionDelayAdvice() {}

  /** On normal exit. */
  @Advice.OnMethodExit(suppress = Throwable.class)
  public static void exit(
      @Advice.This Object states,
      @Advice.Argument(0) String node,
      @Advice.Return(readOnly = false) long delayMs) {
    if (!StaggerModule.SWITCH.active()) {
      return;
    }
    KafkaClient c = KafkaClients.forStates(states);
    if (c == null) {
      return;
    }
    long waitNanos = c.connectDelayNanos(node, System.nanoTime());
    if (waitNanos > 0) {
      delayMs = Math.max(delayMs, (waitNanos + 999_999) / 1_000_000);
    }
  }
}
