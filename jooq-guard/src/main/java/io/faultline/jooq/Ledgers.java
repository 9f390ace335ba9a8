package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import java.util.ArrayDeque;
import org.jooq.Configuration;

/**
 * Where a transaction's {@link Ledger} is found: in its configuration's {@code data()} (jOOQ copies
 * that map into every configuration derived inside the transaction), and in a per-thread stack for
 * statements run on another configuration (ThreadLocalTransactionProvider style).
 */
final class Ledgers {

  private static final ThreadLocal<ArrayDeque<Ledger>> ON_THREAD =
      ThreadLocal.withInitial(ArrayDeque::new);

  private Ledgers() {}

  /** A new ledger for the top-level transaction of {@code configuration}. */
  static Ledger open(Configuration configuration) {
    Ledger ledger = new Ledger();
    configuration.data(Ledger.DATA_KEY, ledger);
    ON_THREAD.get().push(ledger);
    return ledger;
  }

  /** Forgets {@code ledger}: its transaction ended. */
  static void close(Configuration configuration, Ledger ledger) {
    configuration.data().remove(Ledger.DATA_KEY);
    ON_THREAD.get().remove(ledger);
  }

  /** The transaction's ledger, from its configuration only: a hook must not adopt another's. */
  static Ledger of(Configuration configuration) {
    Object value = configuration == null ? null : configuration.data(Ledger.DATA_KEY);
    return value instanceof Ledger ledger ? ledger : null;
  }

  /**
   * The ledger of a statement: its configuration's, else the innermost guarded transaction on this
   * thread (statements run on a configuration outside the transaction, ThreadLocal style).
   */
  static Ledger ofStatement(Configuration configuration) {
    Ledger ledger = of(configuration);
    return ledger != null ? ledger : ON_THREAD.get().peek();
  }

  /** Transaction levels open on the calling thread in guarded transactions. */
  static int openLevelsOnThisThread() {
    int levels = 0;
    for (Ledger ledger : ON_THREAD.get()) {
      levels += ledger.depth();
    }
    return levels;
  }
}
