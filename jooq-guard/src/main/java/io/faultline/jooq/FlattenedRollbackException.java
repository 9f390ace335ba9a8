package io.faultline.jooq;

import org.jooq.exception.DataAccessException;

/**
 * Thrown from the commit of a transaction in which a flattened inner transaction ({@link
 * NestingPolicy#FLATTEN}) failed. Without a savepoint the inner work cannot be undone on its own,
 * so the whole transaction is rolled back rather than committing half of the inner work.
 */
public final class FlattenedRollbackException extends DataAccessException {

  private static final long serialVersionUID = 1L;

  /** The transaction begun at {@code outer} is rolled back because {@code inner} failed. */
  public FlattenedRollbackException(CallSite outer, CallSite inner) {
    super(
        "faultline: the transaction begun at "
            + outer
            + " was rolled back instead of committed: the inner transaction begun at "
            + inner
            + " failed, and under jooq.nesting=FLATTEN it had no savepoint to roll back to, so"
            + " its partial work could only be undone with the whole transaction. Let the"
            + " inner exception reach the outer transaction, or use jooq.nesting=WARN where a"
            + " partial rollback is needed.");
  }
}
