package io.faultline.agent.weave;

import org.objectweb.asm.Type;

/**
 * What is woven into one method: enter advice (before the body; what it returns is kept for the
 * exit and may skip the body) and exit advice (after the body returned, was skipped or, with {@code
 * exitOnThrowable}, threw). Each is guarded: what it throws goes to the weave's {@link ErrorHook},
 * never to the application.
 *
 * @param enter inlined first, or null
 * @param skip when the enter advice's result skips the body
 * @param exit inlined last, or null
 * @param exitOnThrowable whether the exit advice also runs when the body throws
 */
public record MethodAdvice(Hook enter, Skip skip, Hook exit, boolean exitOnThrowable) {

  /** Rejects a combination no weave could honour. */
  public MethodAdvice {
    if (enter == null && exit == null) {
      throw new IllegalArgumentException("advice needs an enter or an exit method");
    }
    if (skip == null) {
      skip = Skip.NEVER;
    }
    if (!(skip instanceof Skip.Never)
        && (enter == null || enter.returnType().getSort() == Type.VOID)) {
      throw new IllegalArgumentException(
          "skipping the body needs an enter advice that returns a value, not " + enter);
    }
    if (exit == null && exitOnThrowable) {
      throw new IllegalArgumentException("onThrowable needs an exit advice");
    }
    if (enter != null
        && (enter.uses(HookArg.Entered.class)
            || enter.uses(HookArg.Returned.class)
            || enter.uses(HookArg.Thrown.class))) {
      throw new IllegalArgumentException(
          "enter advice cannot take what the method returned, threw or entered: " + enter);
    }
    if (exit != null
        && exit.uses(HookArg.Entered.class)
        && (enter == null || enter.returnType().getSort() == Type.VOID)) {
      throw new IllegalArgumentException(
          "exit advice " + exit + " takes the enter advice's result, but none returns one");
    }
  }
}
