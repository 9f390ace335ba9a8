package io.faultline.agent.jooq;

/**
 * What the transaction provider advice calls: JDK types only, so it links from any class loader. It
 * finds the guard of the provider's jOOQ ({@link GuardRegistry}), lets only the outermost provider
 * call of a transaction through to it ({@code ThreadLocalTransactionProvider} calls a {@code
 * DefaultTransactionProvider} with the same context inside its own methods), and turns the guard's
 * answer into the advice's: {@code null} (not ours: run the method, nothing after), {@link
 * #PROCEED} (run it, then the exit hook) or a {@link SkipCall}.
 */
public final class JooqHooks {

  /** Returned by an enter hook when the method runs and the exit hook must follow. */
  public static final Object PROCEED = new Object();

  /** The context of the provider call in progress on this thread, to recognise inner calls. */
  private static final ThreadLocal<Object> OUTER_CALL = new ThreadLocal<>();

  private JooqHooks() {}

  /** Before {@code provider.begin(ctx)}. */
  public static Object beginEnter(Object provider, Object ctx) {
    if (isInnerCall(ctx)) {
      return null;
    }
    TransactionHooks hooks = GuardRegistry.hooksFor(provider);
    if (hooks == null) {
      return null;
    }
    return enterResult(hooks.beginEnter(provider, ctx), ctx);
  }

  /** After {@code provider.begin(ctx)}: returns what the method is to throw (or null). */
  public static Throwable beginExit(Object provider, Object ctx, Object entered, Throwable thrown) {
    if (entered instanceof SkipCall skip && skip.toThrow() != null) {
      return skip.toThrow();
    }
    OUTER_CALL.remove();
    TransactionHooks hooks = GuardRegistry.hooksFor(provider);
    if (hooks != null) {
      hooks.beginExit(ctx, thrown);
    }
    return thrown;
  }

  /** Before {@code provider.commit(ctx)}. */
  public static Object commitEnter(Object provider, Object ctx) {
    if (isInnerCall(ctx)) {
      return null;
    }
    TransactionHooks hooks = GuardRegistry.hooksFor(provider);
    if (hooks == null) {
      return null;
    }
    return enterResult(hooks.commitEnter(ctx), ctx);
  }

  /** After {@code provider.commit(ctx)}: returns what the method is to throw (or null). */
  public static Throwable commitExit(
      Object provider, Object ctx, Object entered, Throwable thrown) {
    if (entered instanceof SkipCall skip && skip.toThrow() != null) {
      // The guard refused the commit: jOOQ rolls back on this exception, as for a failed commit.
      return skip.toThrow();
    }
    OUTER_CALL.remove();
    TransactionHooks hooks = GuardRegistry.hooksFor(provider);
    if (hooks != null) {
      hooks.commitExit(ctx, thrown);
    }
    return thrown;
  }

  /** Before {@code provider.rollback(ctx)}. */
  public static Object rollbackEnter(Object provider, Object ctx) {
    if (isInnerCall(ctx)) {
      return null;
    }
    TransactionHooks hooks = GuardRegistry.hooksFor(provider);
    if (hooks == null) {
      return null;
    }
    return enterResult(hooks.rollbackEnter(ctx), ctx);
  }

  /** After {@code provider.rollback(ctx)}: returns what the method is to throw (or null). */
  public static Throwable rollbackExit(
      Object provider, Object ctx, Object entered, Throwable thrown) {
    OUTER_CALL.remove();
    TransactionHooks hooks = GuardRegistry.hooksFor(provider);
    if (hooks != null) {
      hooks.rollbackExit(ctx, thrown);
    }
    return thrown;
  }

  private static boolean isInnerCall(Object ctx) {
    return ctx != null && OUTER_CALL.get() == ctx;
  }

  private static Object enterResult(Object answer, Object ctx) {
    if (answer instanceof RuntimeException e) {
      return new SkipCall(e);
    }
    if (Boolean.FALSE.equals(answer)) {
      return SkipCall.QUIETLY;
    }
    OUTER_CALL.set(ctx);
    return PROCEED;
  }
}
