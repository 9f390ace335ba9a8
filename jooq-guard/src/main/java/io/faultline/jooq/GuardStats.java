package io.faultline.jooq;

/**
 * The counts of a {@link TransactionGuard} at one moment.
 *
 * @param committed top-level transactions committed
 * @param rolledBack top-level transactions rolled back
 * @param failed top-level transactions whose begin or commit failed
 * @param savepointsCreated savepoints created
 * @param savepointsReleased savepoints released (inner commit)
 * @param savepointsRolledBack savepoints rolled back (inner failure)
 * @param nestedAllowed nested transactions let through to the delegate
 * @param nestedFlattened nested transactions joined to the outer one without a savepoint
 * @param nestedRefused nested transactions refused under {@link NestingPolicy#FAIL}
 * @param statementTimeouts statements cancelled by statement_timeout
 * @param transactionTimeouts transactions that ran past their deadline
 * @param lockTimeouts statements that gave up waiting for a lock (lock_timeout)
 */
public record GuardStats(
    long committed,
    long rolledBack,
    long failed,
    long savepointsCreated,
    long savepointsReleased,
    long savepointsRolledBack,
    long nestedAllowed,
    long nestedFlattened,
    long nestedRefused,
    long statementTimeouts,
    long transactionTimeouts,
    long lockTimeouts) {

  /** Top-level transactions that ended, whatever the outcome. */
  public long transactions() {
    return committed + rolledBack + failed;
  }
}
