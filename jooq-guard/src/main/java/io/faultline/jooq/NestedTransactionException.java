package io.faultline.jooq;

import org.jooq.exception.DataAccessException;

/**
 * Thrown by a guarded provider under {@link NestingPolicy#FAIL} when a transaction is begun inside
 * another one. It is thrown before any savepoint exists: the outer transaction is untouched and
 * decides, like for any other exception, whether to roll back.
 */
public final class NestedTransactionException extends DataAccessException {

  private static final long serialVersionUID = 1L;

  private final transient CallSite outer;
  private final transient CallSite inner;

  /** A refusal of the transaction begun at {@code inner} inside the one begun at {@code outer}. */
  public NestedTransactionException(CallSite outer, CallSite inner, int depth) {
    super(
        "faultline: nested jOOQ transaction refused (jooq.nesting=FAIL): a transaction begun at "
            + inner
            + " inside the transaction begun at "
            + outer
            + " (it would be nesting level "
            + depth
            + ", a SAVEPOINT). Pass the outer Configuration to the inner code instead of starting"
            + " a transaction, or set jooq.nesting=FLATTEN to join the outer transaction.");
    this.outer = outer;
    this.inner = inner;
  }

  /** Where the outer (top-level) transaction was begun. */
  public CallSite outerCallSite() {
    return outer;
  }

  /** Where the refused inner transaction was begun. */
  public CallSite innerCallSite() {
    return inner;
  }
}
