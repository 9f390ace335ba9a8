package io.faultline.agent.weave;

/**
 * What is woven into one method: an enter hook (before the body; what it returns is kept for the
 * exit hook and may skip the body), an exit hook (after the body returned, was skipped or, with
 * {@link Builder#onThrowable()}, threw), and what the exit hook's result replaces. Every hook call
 * is guarded: what a hook throws goes to the weave's error hook, never to the application.
 *
 * @param enter called first, or null
 * @param skip when the enter hook's result skips the body
 * @param exit called last, or null
 * @param exitOnThrowable whether the exit hook also runs when the body throws
 * @param exitResult what the exit hook's result replaces
 */
public record MethodAdvice(
    Hook enter, Skip skip, Hook exit, boolean exitOnThrowable, ExitResult exitResult) {

  /** What an exit hook's result does. */
  public enum ExitResult {
    /** Nothing: the result, if any, is dropped. */
    IGNORED,
    /** It is what the method returns (the hook returns the method's return type). */
    REPLACES_RETURN,
    /**
     * It is what the method throws, or null to return (the hook returns {@code Throwable}); the
     * method then returns what it returned, or its type's default.
     */
    REPLACES_THROWN
  }

  /** Rejects a combination no weave could honour. */
  public MethodAdvice {
    if (enter == null && exit == null) {
      throw new IllegalArgumentException("advice needs an enter or an exit hook");
    }
    if (skip == null) {
      skip = Skip.NEVER;
    }
    if (exitResult == null) {
      exitResult = ExitResult.IGNORED;
    }
    if (!(skip instanceof Skip.Never)
        && (enter == null || enter.returnType().getSort() == org.objectweb.asm.Type.VOID)) {
      throw new IllegalArgumentException(
          "skipping the body needs an enter hook that returns a value, not " + enter);
    }
    if (exit == null && (exitOnThrowable || exitResult != ExitResult.IGNORED)) {
      throw new IllegalArgumentException("onThrowable and exit results need an exit hook");
    }
    if (exitResult == ExitResult.REPLACES_THROWN
        && !exit.returnType().getDescriptor().equals("Ljava/lang/Throwable;")) {
      throw new IllegalArgumentException(
          "an exit hook that replaces what is thrown returns Throwable: " + exit);
    }
    if (enter != null && enter.uses(HookArg.Entered.class)
        || enter != null && enter.uses(HookArg.Returned.class)
        || enter != null && enter.uses(HookArg.Thrown.class)) {
      throw new IllegalArgumentException(
          "an enter hook cannot take what the method returned, threw or entered: " + enter);
    }
    if (exit != null
        && exit.uses(HookArg.Entered.class)
        && (enter == null || enter.returnType().getSort() == org.objectweb.asm.Type.VOID)) {
      throw new IllegalArgumentException(
          "exit hook " + exit + " takes the enter hook's result, but no enter hook returns one");
    }
  }

  /** Advice starting with {@code enter}. */
  public static Builder enter(Hook enter) {
    return new Builder().enter(enter);
  }

  /** Advice with only {@code exit} (more can be added). */
  public static Builder exit(Hook exit) {
    return new Builder().exit(exit);
  }

  /** Builds a {@link MethodAdvice}; {@link #build()} checks it. */
  public static final class Builder {
    private Hook enter;
    private Skip skip = Skip.NEVER;
    private Hook exit;
    private boolean onThrowable;
    private ExitResult result = ExitResult.IGNORED;

    private Builder() {}

    /** The enter hook. */
    public Builder enter(Hook hook) {
      this.enter = hook;
      return this;
    }

    /** When the enter hook's result skips the body. */
    public Builder skip(Skip skip) {
      this.skip = skip;
      return this;
    }

    /** The exit hook. */
    public Builder exit(Hook hook) {
      this.exit = hook;
      return this;
    }

    /** The exit hook also runs when the body throws. */
    public Builder onThrowable() {
      this.onThrowable = true;
      return this;
    }

    /** What the exit hook's result replaces. */
    public Builder exitResult(ExitResult result) {
      this.result = result;
      return this;
    }

    /** The advice, checked. */
    public MethodAdvice build() {
      return new MethodAdvice(enter, skip, exit, onThrowable, result);
    }
  }
}
