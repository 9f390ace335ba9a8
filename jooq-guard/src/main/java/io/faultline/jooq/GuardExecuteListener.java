package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import java.util.Arrays;
import org.jooq.Configuration;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.ExecuteListenerProvider;
import org.jooq.impl.DefaultExecuteListenerProvider;

/**
 * The guard's view of statements: which one runs (for the deadline's watchdog), which ones lock
 * rows (for the MultiXact pattern), and timeouts to translate. Installed on every guarded top-level
 * transaction's configuration.
 */
final class GuardExecuteListener implements ExecuteListener {

  private static final long serialVersionUID = 1L;

  private final TransactionTimeouts timeouts;
  private final RowLockDetector rowLocks;
  private final GuardInternalErrors errors;
  private final ExecuteListenerProvider provider = new DefaultExecuteListenerProvider(this);

  GuardExecuteListener(
      TransactionTimeouts timeouts, RowLockDetector rowLocks, GuardInternalErrors errors) {
    this.timeouts = timeouts;
    this.rowLocks = rowLocks;
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
    ledger.statementStarted();
    timeouts.beforeStatement(ledger);
    try {
      timeouts.statementStarted(ledger, ctx.statement());
      rowLocks.statement(ledger, ctx.sql());
    } catch (RuntimeException e) {
      errors.record(e);
    }
  }

  @Override
  public void executeEnd(ExecuteContext ctx) {
    if (!timeouts.tracksStatements()) {
      // Found after the round trip, the ledger's lookup missed the caches: the costliest step of
      // the guard per statement, and only a watchdog needs it.
      return;
    }
    Ledger ledger = ledgerOf(ctx);
    if (ledger != null) {
      timeouts.statementEnded(ledger);
    }
  }

  @Override
  public void exception(ExecuteContext ctx) {
    Ledger ledger = ledgerOf(ctx);
    if (ledger == null) {
      return;
    }
    try {
      timeouts.statementEnded(ledger);
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
      return Ledgers.onThisThread().ofStatement(ctx.configuration());
    } catch (RuntimeException e) {
      errors.record(e);
      return null;
    }
  }
}
