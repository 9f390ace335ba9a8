package io.faultline.agent.transactional;

import io.faultline.agent.weave.Advice;

/**
 * Around a transactional method: pushes and pops it on the thread's {@link TransactionalNesting}.
 */
public final class TransactionalAdvice {

  private TransactionalAdvice() {}

  /** Entering the method. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(
      @Advice.Origin Class<?> type, @Advice.Origin("#m#d") String methodAndDescriptor) {
    if (!TransactionalModule.SWITCH.active()) {
      return null;
    }
    return TransactionalNesting.enter(type, methodAndDescriptor);
  }

  /** Leaving it, returned or thrown. */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit(@Advice.Enter Object entered) {
    if (entered != null) {
      TransactionalNesting.exit(entered);
    }
  }
}
