package io.faultline.jooq.timeout;

import java.time.Duration;
import org.jooq.exception.DataAccessException;

/**
 * A guarded transaction ran past its deadline ({@code jooq.transaction-timeout} or a
 * per-transaction override): the running statement was cancelled and the transaction is rolled
 * back.
 */
public final class TransactionTimeoutException extends DataAccessException {

  private static final long serialVersionUID = 1L;

  /** The transaction begun at {@code callSite} passed its {@code timeout}. */
  public TransactionTimeoutException(String callSite, Duration timeout, Throwable cause) {
    super(
        "faultline: the transaction begun at "
            + callSite
            + " ran past its deadline of "
            + timeout.toMillis()
            + " ms (jooq.transaction-timeout); its running statement was cancelled and it is"
            + " rolled back. Make the transaction shorter or raise the deadline.",
        cause);
  }
}
