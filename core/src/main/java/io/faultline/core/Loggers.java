package io.faultline.core;

import java.util.Objects;
import java.util.function.Function;

/**
 * Where Faultline's classes get their {@link System.Logger}. Used as a library, that is {@link
 * System#getLogger}; the agent's copy is pointed, before anything else runs, at loggers that leave
 * {@code java.util.logging} to the application: {@code System.getLogger} called from outside the
 * JDK creates the {@code LogManager} at once, so an agent that logged (or only made a logger)
 * before {@code main} chose its own log manager would have chosen the JDK's for it.
 */
public final class Loggers {

  private static volatile Function<String, System.Logger> source;

  private Loggers() {}

  /** The logger named {@code name}. */
  public static System.Logger get(String name) {
    Function<String, System.Logger> s = source;
    return s == null ? System.getLogger(name) : s.apply(name);
  }

  /**
   * Makes later {@link #get} calls ask {@code source} (the agent, at its start; no other code
   * should need to).
   */
  public static void useSource(Function<String, System.Logger> source) {
    Loggers.source = Objects.requireNonNull(source, "source");
  }
}
