package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The guard's work around each statement of a guarded transaction: counted, checked against the
 * transaction's deadline, watched by its watchdog, read for row locks. Reached from the
 * transaction's connection where the guard hands it out ({@link ObservedConnection}), else from
 * {@link GuardExecuteListener}.
 */
final class StatementHooks {

  /** A JDBC call that runs a statement. */
  interface SqlCall<T> {
    T call() throws SQLException;
  }

  private final TransactionTimeouts timeouts;
  private final RowLockDetector rowLocks;
  private final GuardInternalErrors errors;

  StatementHooks(
      TransactionTimeouts timeouts, RowLockDetector rowLocks, GuardInternalErrors errors) {
    this.timeouts = timeouts;
    this.rowLocks = rowLocks;
    this.errors = errors;
  }

  /**
   * {@code sql} is about to run in {@code ledger}'s transaction, on {@code statement}.
   *
   * @throws io.faultline.jooq.timeout.TransactionTimeoutException when the deadline passed
   */
  void starting(Ledger ledger, String sql, Statement statement) {
    ledger.statementStarted();
    timeouts.beforeStatement(ledger);
    try {
      timeouts.statementStarted(ledger, statement);
      rowLocks.statement(ledger, sql);
    } catch (RuntimeException e) {
      errors.record(e);
    }
  }

  /** Whether {@link #ended} needs calling: only while a watchdog may cancel a statement. */
  boolean tracksStatements() {
    return timeouts.tracksStatements();
  }

  /** The statement that was running in {@code ledger}'s transaction ended, however. */
  void ended(Ledger ledger) {
    timeouts.statementEnded(ledger);
  }

  /**
   * Runs {@code call}, the statement {@code sql} on {@code statement} in {@code ledger}'s
   * transaction, seen as {@link #starting}, and a timeout it fails with replaced by the guard's
   * clear exception.
   *
   * @throws io.faultline.jooq.timeout.TransactionTimeoutException when the transaction's deadline
   *     passed, before the statement is sent, or when the watchdog cancelled it
   * @throws io.faultline.jooq.timeout.StatementTimeoutException when PostgreSQL's statement_timeout
   *     cancelled it
   */
  <T> T run(Ledger ledger, String sql, Statement statement, SqlCall<T> call) throws SQLException {
    // A connection kept past its transaction runs unobserved.
    boolean observed = !ledger.closed();
    if (observed) {
      starting(ledger, sql, statement);
    }
    try {
      return call.call();
    } catch (SQLException e) {
      RuntimeException instead = observed ? timeoutOf(ledger, sql, e) : null;
      if (instead != null) {
        throw instead;
      }
      throw e;
    } finally {
      if (observed && timeouts.tracksStatements()) {
        timeouts.statementEnded(ledger);
      }
    }
  }

  /** {@code sql} was added to a batch in {@code ledger}'s transaction: read for row locks. */
  void batched(Ledger ledger, String sql) {
    if (!ledger.closed()) {
      try {
        rowLocks.statement(ledger, sql);
      } catch (RuntimeException e) {
        errors.record(e);
      }
    }
  }

  private RuntimeException timeoutOf(Ledger ledger, String sql, SQLException e) {
    try {
      return timeouts.timeoutOf(ledger, e, sql, null);
    } catch (RuntimeException internal) {
      errors.record(internal);
      return null;
    }
  }
}
