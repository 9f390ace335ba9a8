package io.faultline.jooq;

import java.util.function.Consumer;
import org.jooq.ConnectionProvider;
import org.jooq.TransactionContext;
import org.jooq.impl.ThreadLocalTransactionProvider;

/**
 * jOOQ's {@link ThreadLocalTransactionProvider} with a {@link TransactionGuard}. It has to be a
 * subclass: jOOQ recognises thread-local transactions by this type. Statements of {@code
 * dsl.transaction(() -> ...)} lambdas run on the DSLContext's own configuration, so for row-lock
 * tracking and the transaction deadline add the guard's listener there: {@code
 * configuration.set(provider).set(provider.guard().executeListenerProvider())} (or append it to the
 * listeners you already have).
 */
public class GuardedThreadLocalTransactionProvider extends ThreadLocalTransactionProvider {

  private final TransactionGuard guard;
  private final Consumer<TransactionContext> begin = super::begin;
  private final Consumer<TransactionContext> commit = super::commit;
  private final Consumer<TransactionContext> rollback = super::rollback;

  /**
   * A thread-local provider on {@code connections}, nesting with savepoints when {@code nested},
   * guarded by {@code guard} (from {@link GuardedTransactionProvider.Builder#buildGuard()}).
   */
  public GuardedThreadLocalTransactionProvider(
      ConnectionProvider connections, boolean nested, TransactionGuard guard) {
    super(connections, nested);
    this.guard = guard;
  }

  @Override
  public void begin(TransactionContext ctx) {
    GuardedCalls.begin(guard, ctx, begin);
  }

  @Override
  public void commit(TransactionContext ctx) {
    GuardedCalls.commit(guard, ctx, commit);
  }

  @Override
  public void rollback(TransactionContext ctx) {
    GuardedCalls.rollback(guard, ctx, rollback);
  }

  /** The guard. */
  public TransactionGuard guard() {
    return guard;
  }
}
