package io.faultline.jooq;

import java.util.function.Consumer;
import org.jooq.TransactionContext;

/**
 * Runs a provider's begin, commit or rollback between the guard's enter and exit hooks: what the
 * decorating {@link GuardedTransactionProvider} and the subclassing {@link
 * GuardedThreadLocalTransactionProvider} share. The agent's advice calls the same hooks itself.
 *
 * <p>An enter hook that returns false means the guard handled the call itself (FLATTEN): the
 * provider is skipped. One method per call, each calling its hooks directly, and the providers pass
 * method references they made once: a transaction allocates nothing here and every call site keeps
 * to one or two receivers, which the JIT inlines.
 */
final class GuardedCalls {

  private GuardedCalls() {}

  static void begin(
      TransactionGuard guard, TransactionContext ctx, Consumer<TransactionContext> begin) {
    if (guard.beginEnter(ctx)) {
      try {
        begin.accept(ctx);
      } catch (RuntimeException | Error e) {
        guard.beginExit(ctx, e);
        throw e;
      }
    }
    guard.beginExit(ctx, null);
  }

  static void commit(
      TransactionGuard guard, TransactionContext ctx, Consumer<TransactionContext> commit) {
    if (guard.commitEnter(ctx)) {
      try {
        commit.accept(ctx);
      } catch (RuntimeException | Error e) {
        guard.commitExit(ctx, e);
        throw e;
      }
    }
    guard.commitExit(ctx, null);
  }

  static void rollback(
      TransactionGuard guard, TransactionContext ctx, Consumer<TransactionContext> rollback) {
    if (guard.rollbackEnter(ctx)) {
      try {
        rollback.accept(ctx);
      } catch (RuntimeException | Error e) {
        guard.rollbackExit(ctx, e);
        throw e;
      }
    }
    guard.rollbackExit(ctx, null);
  }
}
