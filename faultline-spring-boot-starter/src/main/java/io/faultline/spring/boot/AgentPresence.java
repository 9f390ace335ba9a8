package io.faultline.spring.boot;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the Faultline agent is attached to this JVM. The agent steps aside for a transaction the
 * application's jooq-guard already guards, so the two never guard one provider twice; it does not
 * count Spring's savepoints at all (its {@code @Transactional} advice names nested method pairs),
 * which the starter's transaction-manager listener counts. The starter says so once, so a reader of
 * the log knows which of the two counts.
 */
final class AgentPresence {

  private static final AtomicBoolean REPORTED = new AtomicBoolean();

  private final boolean attached;

  AgentPresence(boolean attached) {
    this.attached = attached;
  }

  static AgentPresence ofThisJvm() {
    return new AgentPresence(attached(ManagementFactory.getRuntimeMXBean().getInputArguments()));
  }

  /** Whether one of the JVM's arguments is a {@code -javaagent:} jar named for Faultline. */
  static boolean attached(List<String> jvmArguments) {
    for (String argument : jvmArguments) {
      if (argument.startsWith("-javaagent:")
          && argument.toLowerCase(Locale.ROOT).contains("faultline")) {
        return true;
      }
    }
    return false;
  }

  boolean attached() {
    return attached;
  }

  /** Logs, once per JVM, that the starter's guard is the one that counts. */
  void reportOnce() {
    if (attached && REPORTED.compareAndSet(false, true)) {
      System.getLogger(AgentPresence.class.getName())
          .log(
              System.Logger.Level.INFO,
              "faultline: the Faultline agent is attached too; the starter guards the jOOQ"
                  + " TransactionProvider and watches Spring's transaction managers, and the agent"
                  + " leaves those transactions to it (its own @Transactional advice counts no"
                  + " savepoint), so none is counted twice");
    }
  }
}
