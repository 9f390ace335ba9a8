package io.faultline.jooq.timeout;

import java.time.Duration;
import java.util.Objects;

/**
 * The timeouts a guard applies; {@link Duration#ZERO} means "leave the server's setting alone".
 *
 * @param statement PostgreSQL {@code statement_timeout}, per physical connection
 * @param transaction the deadline of a top-level transaction
 * @param lock PostgreSQL {@code lock_timeout}, per physical connection
 * @param idleInTransaction PostgreSQL {@code idle_in_transaction_session_timeout}, per physical
 *     connection
 */
public record TimeoutSettings(
    Duration statement, Duration transaction, Duration lock, Duration idleInTransaction) {

  /** No timeouts. */
  public static final TimeoutSettings NONE =
      new TimeoutSettings(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);

  /** Requires every value; negative values count as zero. */
  public TimeoutSettings {
    statement = clamp(statement, "statement");
    transaction = clamp(transaction, "transaction");
    lock = clamp(lock, "lock");
    idleInTransaction = clamp(idleInTransaction, "idleInTransaction");
  }

  private static Duration clamp(Duration d, String name) {
    Objects.requireNonNull(d, name);
    return d.isNegative() ? Duration.ZERO : d;
  }

  /** Whether any session-level setting is to be applied. */
  public boolean hasSessionSettings() {
    return !statement.isZero() || !lock.isZero() || !idleInTransaction.isZero();
  }
}
