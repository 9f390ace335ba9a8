package io.faultline.bootstrap;

import java.util.function.BiConsumer;

/**
 * Where advice woven into bootstrap ({@code java.base}) classes reports the throwables it
 * suppressed. It lives on the bootstrap class path because such advice cannot see the agent's
 * classes; the agent points {@link #sink} at its own error counter.
 */
public final class BootstrapErrors {

  /** Receives (throwable, module name); {@code null} drops them. Set by the agent. */
  public static volatile BiConsumer<Throwable, String> sink;

  private BootstrapErrors() {}

  /** Called by the exception handler woven after every bootstrap advice; never throws. */
  public static void suppressed(Throwable error, String module) {
    try {
      BiConsumer<Throwable, String> target = sink;
      if (target != null) {
        target.accept(error, module);
      }
    } catch (Throwable ignored) {
      // Nothing may reach the application from here.
    }
  }
}
