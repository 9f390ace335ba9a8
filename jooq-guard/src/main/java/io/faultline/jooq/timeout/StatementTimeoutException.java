package io.faultline.jooq.timeout;

import java.time.Duration;
import org.jooq.exception.DataAccessException;

/**
 * PostgreSQL cancelled a statement of a guarded transaction because it ran longer than its {@code
 * statement_timeout}; the transaction is rolled back.
 */
public final class StatementTimeoutException extends DataAccessException {

  private static final long serialVersionUID = 1L;

  /** The statement {@code sql} ran past {@code timeout} (null when not set by Faultline). */
  public StatementTimeoutException(String sql, Duration timeout, Throwable cause) {
    super(
        "faultline: PostgreSQL cancelled a statement after its statement_timeout"
            + (timeout == null ? "" : " of " + timeout.toMillis() + " ms (jooq.statement-timeout)")
            + ": "
            + abbreviate(sql)
            + ". Make the statement faster (an index, a smaller batch) or raise the timeout for"
            + " this transaction with TimeoutOverride.",
        cause);
  }

  static String abbreviate(String sql) {
    if (sql == null) {
      return "(statement unknown)";
    }
    String oneLine = sql.replaceAll("\\s+", " ").trim();
    return oneLine.length() <= 200 ? oneLine : oneLine.substring(0, 200) + "...";
  }
}
