package io.faultline.jooq;

import java.util.function.Supplier;

/**
 * Test help: runs a supplier {@code n} frames below the caller, every frame in a framework package
 * (this one), as jOOQ's and the guard's own frames lie between a call site and the walk.
 */
public final class FrameworkFrames {

  private FrameworkFrames() {}

  /** {@code at.get()}, called {@code n} framework frames deeper than the caller. */
  public static <T> T below(int n, Supplier<T> at) {
    return n <= 0 ? at.get() : below(n - 1, at);
  }
}
