package io.faultline.jooq.timeout;

import java.time.Duration;
import org.jooq.exception.DataAccessException;

/**
 * PostgreSQL cancelled a statement of a guarded transaction because it ran longer than its {@code
 * statement_timeout}; the transaction is rolled back.
 */
public final class StatementTimeoutException extends DataAccessException {

  private static final long serialVersionUID = 1L;

  /**
   * The statement ran past {@code timeout} (null when not set by Faultline). {@code shownStatement}
   * is put in the message as it is, so it must be fit to show: the guard passes the statement with
   * its literals masked ({@code jooq.sql.literals}) and shortened; null when unknown. The cause is
   * jOOQ's own exception, whose message is jOOQ's (with the SQL as jOOQ rendered it).
   */
  public StatementTimeoutException(String shownStatement, Duration timeout, Throwable cause) {
    super(
        "faultline: PostgreSQL cancelled a statement after its statement_timeout"
            + (timeout == null ? "" : " of " + timeout.toMillis() + " ms (jooq.statement-timeout)")
            + ": "
            + (shownStatement == null ? "(statement unknown)" : shownStatement)
            + ". Make the statement faster (an index, a smaller batch) or raise the timeout for"
            + " this transaction with TimeoutOverride.",
        cause);
  }
}
