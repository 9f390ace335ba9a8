package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import org.jooq.Configuration;

/**
 * Where a transaction's {@link Ledger} is found: in its configuration's {@code data()} (jOOQ copies
 * that map into every configuration derived inside the transaction), and in a per-thread stack for
 * statements run on another configuration (ThreadLocalTransactionProvider style).
 *
 * <p>Each thread remembers the last configuration whose ledger it found: the hooks of one level and
 * its statements ask about the same configuration one after another, and each lookup in a
 * configuration's map, after a round trip, missed the caches (in a profile of a busy pool on a real
 * server, the guard's largest single cost). Only a ledger found or put there is remembered, never
 * its absence, and a closed one is looked up again.
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

    /** The configuration last found carrying {@link #lastLedger}; null when none is known. */
    Configuration lastConfiguration;

    Ledger lastLedger;

    void remember(Configuration configuration, Ledger ledger) {
      lastConfiguration = configuration;
      lastLedger = ledger;
    }

    void forgetConfiguration(Configuration configuration) {
      if (lastConfiguration == configuration) {
        remember(null, null);
      }
    }
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
    OnThread onThread = ON_THREAD.get();
    forget(onThread, ledger);
    ledger.close();
    if (onThread.lastLedger == ledger) {
      onThread.remember(null, null);
    }
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
    OnThread onThread = ON_THREAD.get();
    push(onThread, ledger);
    onThread.remember(configuration, ledger);
    return ledger;
  }

  /**
   * {@code configuration}, of a jOOQ transaction begun inside a managed one, carries that one's
   * {@code ledger} until {@link #forgetAdopted}.
   */
  static void adopt(Configuration configuration, Ledger ledger) {
    configuration.data(Ledger.DATA_KEY, ledger);
    ON_THREAD.get().remember(configuration, ledger);
  }

  /** {@code configuration} stops carrying the managed transaction's ledger it {@link #adopt}ed. */
  static void forgetAdopted(Configuration configuration) {
    configuration.data().remove(Ledger.DATA_KEY);
    ON_THREAD.get().forgetConfiguration(configuration);
  }

  /** Forgets {@code ledger}: its transaction ended. */
  static void close(Configuration configuration, Ledger ledger) {
    configuration.data().remove(Ledger.DATA_KEY);
    OnThread onThread = ON_THREAD.get();
    forget(onThread, ledger);
    ledger.close();
    if (onThread.lastLedger == ledger) {
      onThread.remember(null, null);
    }
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
    if (configuration == null) {
      return null;
    }
    OnThread onThread = ON_THREAD.get();
    Ledger last = onThread.lastLedger;
    if (configuration == onThread.lastConfiguration && !last.closed()) {
      return last;
    }
    if (configuration.data(Ledger.DATA_KEY) instanceof Ledger ledger) {
      onThread.remember(configuration, ledger);
      return ledger;
    }
    return null;
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
