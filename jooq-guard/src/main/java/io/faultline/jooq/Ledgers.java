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

  /**
   * Whether a guarded jOOQ provider is inside its delegate's begin, commit or rollback on this
   * thread: a transaction manager's own events then are that call's, already counted.
   */
  private static final ThreadLocal<Boolean> PROVIDER_CALL = new ThreadLocal<>();

  private Ledgers() {}

  /** A new ledger, on this thread only, for a transaction a manager outside jOOQ began. */
  static Ledger openManaged() {
    Ledger ledger = new Ledger(true);
    ON_THREAD.get().push(ledger);
    return ledger;
  }

  /** Forgets a managed {@code ledger}: its transaction ended. */
  static void closeManaged(Ledger ledger) {
    forget(ON_THREAD.get(), ledger);
  }

  /** The innermost transaction on this thread, guarded or managed; null when none. */
  static Ledger innermostOnThread() {
    return ON_THREAD.get().peek();
  }

  /** The innermost transaction on this thread when a manager outside jOOQ began it; else null. */
  static Ledger managedOnThread() {
    Ledger ledger = ON_THREAD.get().peek();
    return ledger != null && ledger.managed() ? ledger : null;
  }

  /** Marks the start (true) or the end (false) of a guarded provider's call to its delegate. */
  static void providerCall(boolean inside) {
    // set(FALSE), not remove(): a removal clears the entry's weak reference, a native call that
    // was a tenth of the guard's own cost per transaction. The value holds nothing of ours.
    PROVIDER_CALL.set(inside ? Boolean.TRUE : Boolean.FALSE);
  }

  /** Whether a guarded provider is calling its delegate on this thread. */
  static boolean inProviderCall() {
    return Boolean.TRUE.equals(PROVIDER_CALL.get());
  }

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
    forget(ON_THREAD.get(), ledger);
  }

  /** Removes {@code ledger} from a thread's stack: almost always its top, which costs no search. */
  private static void forget(ArrayDeque<Ledger> onThread, Ledger ledger) {
    if (onThread.peek() == ledger) {
      onThread.pop();
    } else {
      onThread.remove(ledger);
    }
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
