package io.faultline.agent.jooq;

/**
 * Returned by the enter advice of a transaction provider method to skip the method (the advice's
 * {@code skipOn}); carries the exception the exit advice then throws to the application, if any.
 */
public final class SkipCall {

  static final SkipCall QUIETLY = new SkipCall(null);

  private final RuntimeException toThrow;

  SkipCall(RuntimeException toThrow) {
    this.toThrow = toThrow;
  }

  /** What the application sees instead of the call, or null for a silent skip. */
  public RuntimeException toThrow() {
    return toThrow;
  }
}
