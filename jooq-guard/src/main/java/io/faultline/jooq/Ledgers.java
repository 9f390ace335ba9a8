package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import org.jooq.Configuration;

/**
 * The transactions one thread knows, and where their {@link Ledger}s are found: in a transaction's
 * configuration's {@code data()} (jOOQ copies that map into every configuration derived inside the
 * transaction), and in a stack of the thread's open transactions for statements run on another
 * configuration (ThreadLocalTransactionProvider style).
 *
 * <p>One instance per thread ({@link #onThisThread()}), fetched once per hook: each hook of a busy
 * pool's worker runs after a round trip, with its caches cold, and every thread-local lookup costs
 * it a few dependent cache misses.
 *
 * <p>It remembers the last configuration whose ledger it found: the hooks of one level and its
 * statements ask about the same configuration one after another, and each lookup in a
 * configuration's map, after a round trip, missed the caches (in a profile of a busy pool on a real
 * server, the guard's largest single cost). Only a ledger found or put there is remembered, never
 * its absence, and a closed one is looked up again.
 */
final class Ledgers {

  private static final ThreadLocal<Ledgers> ON_THREAD = ThreadLocal.withInitial(Ledgers::new);

  /** The innermost open transaction; the others are linked below it (Ledger.outerOnThread). */
  private Ledger innermost;

  /**
   * Whether a guarded jOOQ provider is inside its delegate's begin, commit or rollback: a
   * transaction manager's own events then are that call's, already counted.
   */
  private boolean providerCall;

  /** The configuration last found carrying {@link #lastLedger}; null when none is known. */
  private Configuration lastConfiguration;

  private Ledger lastLedger;

  private Ledgers() {}

  /** The calling thread's. */
  static Ledgers onThisThread() {
    return ON_THREAD.get();
  }

  /** A new ledger, on this thread only, for a transaction a manager outside jOOQ began. */
  Ledger openManaged() {
    Ledger ledger = new Ledger(true);
    push(ledger);
    return ledger;
  }

  /** The innermost transaction on this thread, guarded or managed; null when none. */
  Ledger innermost() {
    return innermost;
  }

  /** The innermost transaction on this thread when a manager outside jOOQ began it; else null. */
  Ledger managed() {
    return innermost != null && innermost.managed() ? innermost : null;
  }

  /** Marks the start (true) or the end (false) of a guarded provider's call to its delegate. */
  void providerCall(boolean inside) {
    providerCall = inside;
  }

  /** Whether a guarded provider is calling its delegate on this thread. */
  boolean inProviderCall() {
    return providerCall;
  }

  /** A new ledger for the top-level transaction of {@code configuration}. */
  Ledger open(Configuration configuration) {
    Ledger ledger = new Ledger();
    configuration.data(Ledger.DATA_KEY, ledger);
    push(ledger);
    remember(configuration, ledger);
    return ledger;
  }

  /**
   * {@code configuration}, of a jOOQ transaction begun inside a managed one, carries that one's
   * {@code ledger} until {@link #forgetAdopted}.
   */
  void adopt(Configuration configuration, Ledger ledger) {
    configuration.data(Ledger.DATA_KEY, ledger);
    remember(configuration, ledger);
  }

  /** {@code configuration} stops carrying the managed transaction's ledger it {@link #adopt}ed. */
  void forgetAdopted(Configuration configuration) {
    configuration.data().remove(Ledger.DATA_KEY);
    if (lastConfiguration == configuration) {
      remember(null, null);
    }
  }

  /**
   * Forgets {@code ledger}: its transaction ended. {@code configuration} is the one it was opened
   * on, or null for a managed one ({@link #openManaged}).
   */
  void close(Configuration configuration, Ledger ledger) {
    if (configuration != null) {
      configuration.data().remove(Ledger.DATA_KEY);
    }
    forget(ledger);
    ledger.close();
    if (lastLedger == ledger) {
      remember(null, null);
    }
  }

  /** The transaction's ledger, from its configuration only: a hook must not adopt another's. */
  Ledger of(Configuration configuration) {
    if (configuration == null) {
      return null;
    }
    Ledger last = lastLedger;
    if (configuration == lastConfiguration && !last.closed()) {
      return last;
    }
    if (configuration.data(Ledger.DATA_KEY) instanceof Ledger ledger) {
      remember(configuration, ledger);
      return ledger;
    }
    return null;
  }

  /**
   * The ledger of a statement: its configuration's, else the innermost guarded transaction on this
   * thread (statements run on a configuration outside the transaction, ThreadLocal style).
   */
  Ledger ofStatement(Configuration configuration) {
    Ledger ledger = of(configuration);
    return ledger != null ? ledger : innermost;
  }

  /** Transaction levels open on this thread in guarded transactions. */
  int openLevels() {
    int levels = 0;
    for (Ledger ledger = innermost; ledger != null; ledger = ledger.outerOnThread()) {
      levels += ledger.depth();
    }
    return levels;
  }

  private void remember(Configuration configuration, Ledger ledger) {
    lastConfiguration = configuration;
    lastLedger = ledger;
  }

  private void push(Ledger ledger) {
    ledger.outerOnThread(innermost);
    innermost = ledger;
  }

  /**
   * Removes {@code ledger} from the thread's stack: almost always its top, which costs no search.
   */
  private void forget(Ledger ledger) {
    if (innermost == ledger) {
      innermost = ledger.outerOnThread();
    } else {
      for (Ledger above = innermost; above != null; above = above.outerOnThread()) {
        if (above.outerOnThread() == ledger) {
          above.outerOnThread(ledger.outerOnThread());
          break;
        }
      }
    }
    ledger.outerOnThread(null);
  }
}
