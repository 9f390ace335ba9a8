package io.faultline.core;

/**
 * Internal: whether JDK Flight Recorder's API ({@code jdk.jfr}) is in this runtime. A runtime made
 * with {@code jlink} may leave it out; Faultline's event classes extend {@code jdk.jfr.Event}, so
 * they are touched only when this says so.
 */
public final class Jfr {

  private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

  private Jfr() {}

  /** Whether the {@code jdk.jfr} module is in the boot layer. */
  public static boolean available() {
    return AVAILABLE;
  }
}
