package io.faultline.jooq;

import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jooq.TransactionContext;

/**
 * Runs a provider's begin, commit or rollback between the guard's enter and exit hooks: what the
 * decorating {@link GuardedTransactionProvider} and the subclassing {@link
 * GuardedThreadLocalTransactionProvider} share. The agent's advice calls the same hooks itself.
 */
final class GuardedCalls {

  private GuardedCalls() {}

  static void begin(
      TransactionGuard guard, TransactionContext ctx, Consumer<TransactionContext> begin) {
    around(ctx, guard::beginEnter, begin, guard::beginExit);
  }

  static void commit(
      TransactionGuard guard, TransactionContext ctx, Consumer<TransactionContext> commit) {
    around(ctx, guard::commitEnter, commit, guard::commitExit);
  }

  static void rollback(
      TransactionGuard guard, TransactionContext ctx, Consumer<TransactionContext> rollback) {
    around(ctx, guard::rollbackEnter, rollback, guard::rollbackExit);
  }

  /** {@code enter} false means the guard handled the call itself (FLATTEN): skip the provider. */
  private static void around(
      TransactionContext ctx,
      Predicate<TransactionContext> enter,
      Consumer<TransactionContext> call,
      BiConsumer<TransactionContext, Throwable> exit) {
    if (enter.test(ctx)) {
      try {
        call.accept(ctx);
      } catch (RuntimeException | Error e) {
        exit.accept(ctx, e);
        throw e;
      }
    }
    exit.accept(ctx, null);
  }
}
