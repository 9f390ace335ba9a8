package io.faultline.spring.boot;

import java.util.ArrayDeque;
import java.util.Iterator;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Tells the application's guard about every transaction a Spring transaction manager begins and
 * ends: a new one ({@code @Transactional}, {@code REQUIRES_NEW}, {@code TransactionTemplate}) is a
 * top-level transaction, a nested one ({@code propagation = NESTED}) a savepoint, counted and
 * judged like jOOQ's nested transactions ({@code JOOQ_NESTED_TRANSACTION}, {@code
 * JOOQ_SAVEPOINT_AFTER_ROW_LOCK}, {@code JOOQ_SUBTRANSACTION_OVERFLOW}). Under {@code
 * jooq.nesting=FAIL} a nested begin throws before Spring makes the savepoint. A transaction that
 * joins an outer one ({@code REQUIRED}) is no event of Spring's, and changes nothing in the
 * database either.
 */
final class ManagedTransactionListener implements TransactionExecutionListener {

  private final ApplicationGuard guard;

  /** The transactions this listener follows on each thread, innermost first. */
  private final ThreadLocal<ArrayDeque<Open>> open = ThreadLocal.withInitial(ArrayDeque::new);

  private record Open(TransactionExecution execution, Object token) {}

  ManagedTransactionListener(ApplicationGuard guard) {
    this.guard = guard;
  }

  @Override
  public void beforeBegin(TransactionExecution transaction) {
    Object token = guard.get().managedBeginEnter(transaction.isNested());
    if (token != null) {
      open.get().push(new Open(transaction, token));
    }
  }

  @Override
  public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
    Object token = find(transaction, beginFailure != null);
    if (token != null) {
      guard.get().managedBeginExit(token, beginFailure);
    }
  }

  /**
   * A top-level transaction in which a flattened {@code dsl.transaction} failed is refused here
   * ({@code FlattenedRollbackException}): Spring rolls it back instead of committing the failed
   * level's statements.
   */
  @Override
  public void beforeCommit(TransactionExecution transaction) {
    Object token = find(transaction, false);
    if (token != null) {
      guard.get().managedCommitEnter(token);
    }
  }

  @Override
  public void afterCommit(TransactionExecution transaction, Throwable commitFailure) {
    end(transaction, commitFailure == null);
  }

  @Override
  public void afterRollback(TransactionExecution transaction, Throwable rollbackFailure) {
    end(transaction, false);
  }

  private void end(TransactionExecution transaction, boolean committed) {
    Object token = find(transaction, true);
    if (token != null) {
      guard.get().managedEnd(token, committed);
    }
  }

  /**
   * The token of {@code transaction} on this thread, or null; {@code remove} forgets it, and the
   * ones above it, whose end Spring never reported (the guard ends them with it).
   */
  private Object find(TransactionExecution transaction, boolean remove) {
    ArrayDeque<Open> stack = open.get();
    for (Iterator<Open> it = stack.iterator(); it.hasNext(); ) {
      Open entry = it.next();
      if (entry.execution() == transaction) {
        if (remove) {
          while (stack.pop() != entry) {
            // an entry whose end was never reported
          }
        }
        return entry.token();
      }
    }
    return null;
  }
}
