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

  /**
   * Whether an event could be recorded now: the module is there and Flight Recorder has been
   * started in this JVM. Until then an event class is not even loaded (loading the first one sets
   * up JFR's event machinery, tens of milliseconds of a start that records nothing).
   */
  public static boolean recording() {
    return AVAILABLE && Started.check();
  }

  /** Touches {@code jdk.jfr} only once the module is known to be there. */
  private static final class Started {
    static boolean check() {
      return jdk.jfr.FlightRecorder.isInitialized();
    }
  }
}
