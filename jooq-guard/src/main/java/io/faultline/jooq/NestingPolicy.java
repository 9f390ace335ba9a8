package io.faultline.jooq;

/**
 * What {@link GuardedTransactionProvider} does when a transaction is begun inside another one on
 * the same connection (which jOOQ's {@code DefaultTransactionProvider} and Spring's provider turn
 * into a {@code SAVEPOINT}, a PostgreSQL subtransaction).
 */
public enum NestingPolicy {
  /** Let it happen and count it. */
  ALLOW,
  /** Let it happen, count it, log once per call site and raise {@code JOOQ_NESTED_TRANSACTION}. */
  WARN,
  /**
   * Refuse it: throw {@link NestedTransactionException} naming both call sites before any savepoint
   * exists; the outer transaction is untouched and decides what to do with the exception.
   */
  FAIL,
  /**
   * Join the outer transaction without a savepoint. An inner failure can then no longer be rolled
   * back on its own: the whole transaction is rolled back (the outer commit fails with {@link
   * FlattenedRollbackException} if the outer code swallowed the inner exception).
   */
  FLATTEN
}
