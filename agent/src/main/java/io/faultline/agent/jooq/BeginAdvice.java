package io.faultline.agent.jooq;

import io.faultline.agent.weave.Advice;

/**
 * Around a jOOQ transaction provider's {@code begin(TransactionContext)}: the guard's begin hooks.
 * The enter advice may skip the method ({@link SkipCall}); the exit advice may replace what it
 * throws with the guard's exception.
 */
public final class BeginAdvice {

  private BeginAdvice() {}

  /** Before {@code begin}. */
  @Advice.OnMethodEnter(skipOn = SkipCall.class, suppress = Throwable.class)
  public static Object enter(@Advice.This Object provider, @Advice.Argument(0) Object ctx) {
    if (!JooqTransactionModule.SWITCH.active()) {
      return null;
    }
    return JooqHooks.beginEnter(provider, ctx);
  }

  /** After {@code begin}, returned, thrown or skipped. */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit(
      @Advice.This Object provider,
      @Advice.Argument(0) Object ctx,
      @Advice.Enter Object entered,
      @Advice.Thrown(readOnly = false) Throwable thrown) {
    if (entered == null) {
      return;
    }
    thrown = JooqHooks.beginExit(provider, ctx, entered, thrown);
  }
}
