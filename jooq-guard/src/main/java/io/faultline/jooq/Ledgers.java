package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import org.jooq.Configuration;

/**
 * Where a transaction's {@link Ledger} is found: in its configuration's {@code data()} (jOOQ copies
 * that map into every configuration derived inside the transaction), and in a per-thread stack for
 * statements run on another configuration (ThreadLocalTransactionProvider style).
 */
final class Ledgers {

  /**
   * What the guard keeps per thread, in one object behind one thread-local: each hook of a busy
   * pool's worker runs after a round trip, with its caches cold, and pays for every object it
   * touches.
   */
  private static final class OnThread {
    /** The innermost open transaction; the others are linked below it (Ledger.outerOnThread). */
    Ledger innermost;

    /**
     * Whether a guarded jOOQ provider is inside its delegate's begin, commit or rollback: a
     * transaction manager's own events then are that call's, already counted.
     */
    boolean providerCall;
  }

  private static final ThreadLocal<OnThread> ON_THREAD = ThreadLocal.withInitial(OnThread::new);

  private Ledgers() {}

  /** A new ledger, on this thread only, for a transaction a manager outside jOOQ began. */
  static Ledger openManaged() {
    Ledger ledger = new Ledger(true);
    push(ON_THREAD.get(), ledger);
    return ledger;
  }

  /** Forgets a managed {@code ledger}: its transaction ended. */
  static void closeManaged(Ledger ledger) {
    forget(ON_THREAD.get(), ledger);
  }

  /** The innermost transaction on this thread, guarded or managed; null when none. */
  static Ledger innermostOnThread() {
    return ON_THREAD.get().innermost;
  }

  /** The innermost transaction on this thread when a manager outside jOOQ began it; else null. */
  static Ledger managedOnThread() {
    Ledger ledger = ON_THREAD.get().innermost;
    return ledger != null && ledger.managed() ? ledger : null;
  }

  /** Marks the start (true) or the end (false) of a guarded provider's call to its delegate. */
  static void providerCall(boolean inside) {
    ON_THREAD.get().providerCall = inside;
  }

  /** Whether a guarded provider is calling its delegate on this thread. */
  static boolean inProviderCall() {
    return ON_THREAD.get().providerCall;
  }

  /** A new ledger for the top-level transaction of {@code configuration}. */
  static Ledger open(Configuration configuration) {
    Ledger ledger = new Ledger();
    configuration.data(Ledger.DATA_KEY, ledger);
    push(ON_THREAD.get(), ledger);
    return ledger;
  }

  /** Forgets {@code ledger}: its transaction ended. */
  static void close(Configuration configuration, Ledger ledger) {
    configuration.data().remove(Ledger.DATA_KEY);
    forget(ON_THREAD.get(), ledger);
  }

  private static void push(OnThread onThread, Ledger ledger) {
    ledger.outerOnThread(onThread.innermost);
    onThread.innermost = ledger;
  }

  /** Removes {@code ledger} from a thread's stack: almost always its top, which costs no search. */
  private static void forget(OnThread onThread, Ledger ledger) {
    if (onThread.innermost == ledger) {
      onThread.innermost = ledger.outerOnThread();
    } else {
      for (Ledger above = onThread.innermost; above != null; above = above.outerOnThread()) {
        if (above.outerOnThread() == ledger) {
          above.outerOnThread(ledger.outerOnThread());
          break;
        }
      }
    }
    ledger.outerOnThread(null);
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
    return ledger != null ? ledger : ON_THREAD.get().innermost;
  }

  /** Transaction levels open on the calling thread in guarded transactions. */
  static int openLevelsOnThisThread() {
    int levels = 0;
    for (Ledger ledger = ON_THREAD.get().innermost;
        ledger != null;
        ledger = ledger.outerOnThread()) {
      levels += ledger.depth();
    }
    return levels;
  }
}
