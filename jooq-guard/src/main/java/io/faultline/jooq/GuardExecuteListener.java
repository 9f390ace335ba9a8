package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import java.util.Arrays;
import org.jooq.Configuration;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.ExecuteListenerProvider;
import org.jooq.impl.DefaultExecuteListenerProvider;

/**
 * The guard's view of statements through jOOQ's listener: which one runs (for the deadline's
 * watchdog), which ones lock rows (for the MultiXact pattern), and timeouts to translate. Installed
 * on a guarded top-level transaction's configuration when its connection cannot be observed ({@link
 * TransactionConnections}), and by applications on configurations whose statements run outside the
 * transaction's (the thread-local provider's, Spring's).
 */
final class GuardExecuteListener implements ExecuteListener {

  private static final long serialVersionUID = 1L;

  private final StatementHooks statements;
  private final TransactionTimeouts timeouts;
  private final GuardInternalErrors errors;
  private final ExecuteListenerProvider provider = new DefaultExecuteListenerProvider(this);

  GuardExecuteListener(
      StatementHooks statements, TransactionTimeouts timeouts, GuardInternalErrors errors) {
    this.statements = statements;
    this.timeouts = timeouts;
    this.errors = errors;
  }

  /** The provider of this listener (one instance, so it is added once per configuration). */
  ExecuteListenerProvider provider() {
    return provider;
  }

  /** Adds this listener to {@code configuration} unless it is there already. */
  void installOn(Configuration configuration) {
    ExecuteListenerProvider[] current = configuration.executeListenerProviders();
    for (ExecuteListenerProvider p : current) {
      if (p == provider) {
        return;
      }
    }
    ExecuteListenerProvider[] next = Arrays.copyOf(current, current.length + 1);
    next[current.length] = provider;
    configuration.set(next);
  }

  @Override
  public void executeStart(ExecuteContext ctx) {
    Ledger ledger = ledgerOf(ctx);
    if (ledger == null) {
      return;
    }
    statements.starting(ledger, ctx.sql(), ctx.statement());
  }

  @Override
  public void executeEnd(ExecuteContext ctx) {
    if (!statements.tracksStatements()) {
      // Found after the round trip, the ledger's lookup missed the caches: the costliest step of
      // the guard per statement, and only a watchdog needs it.
      return;
    }
    Ledger ledger = ledgerOf(ctx);
    if (ledger != null) {
      statements.ended(ledger);
    }
  }

  @Override
  public void exception(ExecuteContext ctx) {
    Ledger ledger = ledgerOf(ctx);
    if (ledger == null) {
      return;
    }
    try {
      statements.ended(ledger);
      if (!ledger.managed()) {
        // A managed transaction's timeouts are its manager's, not the guard's to explain.
        timeouts.translate(ctx, ledger);
      }
    } catch (RuntimeException e) {
      errors.record(e);
    }
  }

  private Ledger ledgerOf(ExecuteContext ctx) {
    try {
      Ledger ledger = Ledgers.onThisThread().ofStatement(ctx.configuration());
      // Its connection reports its statements already (TransactionConnections).
      return ledger == null || ledger.statementsObserved() ? null : ledger;
    } catch (RuntimeException e) {
      errors.record(e);
      return null;
    }
  }
}
