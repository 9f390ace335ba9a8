package io.faultline.jooq;

import io.faultline.jooq.internal.Ledger;
import io.faultline.jooq.internal.Level;
import io.faultline.jooq.internal.RowLockSql;

/**
 * The Channel.io PostgreSQL outage's MultiXact pattern: a transaction that locked rows ({@code
 * SELECT ... FOR UPDATE/SHARE}) and then begins a savepoint. Statements are seen through the
 * guard's execute listener; savepoints through the begin hook.
 */
final class RowLockDetector {

  private final GuardFindings findings;

  RowLockDetector(GuardFindings findings) {
    this.findings = findings;
  }

  /** A statement about to run in {@code ledger}'s transaction: remembers a locking one. */
  void statement(Ledger ledger, String sql) {
    if (RowLockSql.locksRows(sql)) {
      ledger.rowLocked(sql);
    }
  }

  /** A savepoint ({@code level}) was created: raises the finding when rows were locked before. */
  void savepointCreated(Ledger ledger, Level level, boolean byManager) {
    if (ledger.isRowLocked()) {
      findings.savepointAfterRowLock(ledger, level, byManager);
    }
  }
}
