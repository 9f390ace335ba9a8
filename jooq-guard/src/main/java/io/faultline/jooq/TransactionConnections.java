package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import java.sql.Connection;
import java.util.Map;
import org.jooq.Configuration;
import org.jooq.impl.DefaultConnectionProvider;

/**
 * Hands a guarded transaction of jOOQ's {@code DefaultTransactionProvider} a connection whose
 * statements report to the guard ({@link ObservedConnection}), so that jOOQ need not dispatch every
 * statement to the guard's {@code ExecuteListener}.
 *
 * <p>That provider keeps the transaction's connection in the transaction's configuration data,
 * where the configuration also finds it for statements (and nested transactions copy it from). The
 * observed connection replaces it there after the provider's begin, and the provider's own is put
 * back before its commit or rollback, so that the connection it releases is the one it acquired.
 * Other providers, whose statements find their connection elsewhere, keep the listener.
 */
final class TransactionConnections {

  // The provider's data key, an internal enum constant of jOOQ's: found by its name once.
  private static final String KEY_NAME = "DATA_DEFAULT_TRANSACTION_PROVIDER_CONNECTION";

  private volatile Object key;

  /**
   * Observes the statements of {@code ledger}'s transaction, just begun on {@code configuration};
   * false when its provider is not one whose connection can be observed so.
   */
  boolean observe(Configuration configuration, Ledger ledger, StatementHooks hooks) {
    Map<Object, Object> data = configuration.data();
    Object key = keyIn(data);
    if (key == null
        || !(data.get(key) instanceof DefaultConnectionProvider own)
        || own instanceof Observed) {
      return false;
    }
    Observed observed = new Observed(own, new ObservedConnection(own.acquire(), ledger, hooks));
    data.put(key, observed);
    // A provider that takes its statements' connection from elsewhere (ThreadLocal style) would
    // leave the statements unobserved: put its own back and let the listener see them.
    if (configuration.connectionProvider() != observed) {
      data.put(key, own);
      return false;
    }
    ledger.statementsObserved(true);
    return true;
  }

  /** Before the provider commits or rolls back the top level: its own connection is back. */
  void restore(Configuration configuration) {
    Object key = this.key;
    if (key != null) {
      Map<Object, Object> data = configuration.data();
      if (data.get(key) instanceof Observed observed) {
        data.put(key, observed.own);
      }
    }
  }

  private Object keyIn(Map<Object, Object> data) {
    Object known = key;
    if (known != null) {
      return known;
    }
    for (Object candidate : data.keySet()) {
      if (candidate instanceof Enum<?> e && KEY_NAME.equals(e.name())) {
        key = candidate;
        return candidate;
      }
    }
    return null;
  }

  /** The observed connection in the provider's place, with the provider's own to put back. */
  private static final class Observed extends DefaultConnectionProvider {
    private final DefaultConnectionProvider own;

    Observed(DefaultConnectionProvider own, Connection observed) {
      super(observed);
      this.own = own;
    }
  }
}
