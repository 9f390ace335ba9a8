package io.faultline.core.config;

/**
 * The value of a feature's switch key (the key named like the feature): a boolean, or an enum with
 * an {@code OFF} constant for a feature with more than two modes ({@code
 * kafka.recycle=off|warn|on}).
 */
final class FeatureSwitch {

  private static final String OFF = "OFF";

  private FeatureSwitch() {}

  /** Whether a switch holding {@code value} lets its feature run; no switch at all means on. */
  static boolean isOn(Object value) {
    if (value instanceof Boolean on) {
      return on;
    }
    if (value instanceof Enum<?> mode) {
      return !OFF.equals(mode.name());
    }
    return true;
  }

  /** Whether {@code value} is a constant of an enum that has an {@code OFF} constant. */
  static boolean isOffEnum(Object value) {
    if (value instanceof Enum<?> mode) {
      for (Enum<?> c : mode.getDeclaringClass().getEnumConstants()) {
        if (OFF.equals(c.name())) {
          return true;
        }
      }
    }
    return false;
  }
}
