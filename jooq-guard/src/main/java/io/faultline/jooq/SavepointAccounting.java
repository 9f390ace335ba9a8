package io.faultline.jooq;

import io.faultline.jooq.internal.GuardMetrics;
import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.Level;

/**
 * Counts savepoints (created, released, rolled back) and reports a transaction that created more
 * than the subtransaction limit (PostgreSQL's per-backend cache holds 64) or a savepoint after a
 * row lock.
 */
final class SavepointAccounting {

  private final GuardMetrics metrics;
  private final RowLockDetector rowLocks;
  private final GuardFindings findings;
  private final int subtransactionLimit;

  SavepointAccounting(
      GuardMetrics metrics,
      RowLockDetector rowLocks,
      GuardFindings findings,
      int subtransactionLimit) {
    this.metrics = metrics;
    this.rowLocks = rowLocks;
    this.findings = findings;
    this.subtransactionLimit = subtransactionLimit;
  }

  /**
   * The delegate created the savepoint of {@code level}; {@code byManager}: a transaction manager
   * outside jOOQ made it ({@code @Transactional(propagation = NESTED)}).
   */
  void created(Ledger ledger, Level level, boolean byManager) {
    metrics.savepointCreated(ledger);
    int count = ledger.savepointCreated();
    rowLocks.savepointCreated(ledger, level, byManager);
    if (count > subtransactionLimit && !ledger.overflowReported()) {
      ledger.overflowReported(true);
      findings.subtransactionOverflow(ledger, count, subtransactionLimit);
    }
  }

  /** A savepoint of {@code ledger}'s transaction was released (its level committed). */
  void released(Ledger ledger) {
    metrics.savepointReleased(ledger);
  }

  /** A savepoint of {@code ledger}'s transaction was rolled back. */
  void rolledBack(Ledger ledger) {
    metrics.savepointRolledBack(ledger);
  }
}
