package io.faultline.jooq.pool;

/**
 * What the database's own sessions say about contention at one moment.
 *
 * @param lockWaiters client backends of the database waiting on a heavyweight lock (a row or table
 *     lock) or on a MultiXact/subtransaction SLRU lightweight lock
 * @param slowestStatementSeconds age of the longest-running active statement of another session, in
 *     seconds (0 when none): a cheap stand-in for statement latency that needs no extension
 */
public record ContentionReading(int lockWaiters, double slowestStatementSeconds) {

  @Override
  public String toString() {
    return String.format(
        java.util.Locale.ROOT,
        "lockWaiters=%d slowestStatement=%.2fs",
        lockWaiters,
        slowestStatementSeconds);
  }
}
