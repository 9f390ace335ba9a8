package io.faultline.agent.jooq;

/**
 * The guard of one jOOQ class loader, as seen from the agent's class loader: only JDK types cross
 * it, so the agent never links against a jOOQ it cannot see. Implemented by {@code
 * io.faultline.agent.jooq.bridge.GuardBridge}, defined by a {@link GuardClassLoader} next to the
 * application's jOOQ.
 *
 * <p>The enter methods return {@link Boolean#TRUE} (call the provider), {@link Boolean#FALSE} (skip
 * it) or the {@link RuntimeException} the guard means the application to see (a nested transaction
 * refused, a flattened failure, a passed deadline).
 */
public interface TransactionHooks {

  /** Before {@code provider.begin(ctx)}. */
  Object beginEnter(Object provider, Object ctx);

  /** After {@code begin} (or instead of it); {@code thrown} is what it threw, or null. */
  void beginExit(Object ctx, Throwable thrown);

  /** Before {@code provider.commit(ctx)}. */
  Object commitEnter(Object ctx);

  /** After {@code commit} (or instead of it). */
  void commitExit(Object ctx, Throwable thrown);

  /** Before {@code provider.rollback(ctx)}. */
  Object rollbackEnter(Object ctx);

  /** After {@code rollback} (or instead of it). */
  void rollbackExit(Object ctx, Throwable thrown);
}
