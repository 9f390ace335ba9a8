package io.faultline.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One configuration key, declared once in code: its name, type, default, the feature it belongs to,
 * and what it means. Modules publish their keys through a {@link ConfigKeyCatalog}; {@code
 * docs/configuration.md} is checked against those declarations.
 *
 * <p>Names are lowercase and dotted ({@code kafka.tcp.interval}); the same key is {@code
 * -Dfaultline.kafka.tcp.interval} as a system property and {@code FAULTLINE_KAFKA_TCP_INTERVAL} as
 * an environment variable.
 *
 * @param name the dotted key name, without the {@code faultline.} prefix
 * @param type how its text is parsed
 * @param defaultValue the value when no source sets it
 * @param feature the feature it belongs to; a bad value turns that feature off
 * @param description what it means, one or two sentences
 * @param <T> the value's Java type
 */
public record ConfigKey<T>(
    String name, ValueType<T> type, T defaultValue, String feature, String description) {

  /** Validates the declaration. */
  public ConfigKey {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(feature, "feature");
    Objects.requireNonNull(description, "description");
    if (!isKeyName(name)) {
      throw new IllegalArgumentException("config key must be lowercase and dotted: " + name);
    }
  }

  /**
   * Whether {@code name} reads {@code [a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*}. By hand, not with a
   * regular expression: every key is declared while the agent's {@code premain} runs, and compiling
   * the pattern there spun the JDK's character-class lambdas on the application's start path.
   */
  static boolean isKeyName(String name) {
    boolean segmentStart = true;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean lowerOrDigit = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      if (segmentStart) {
        if (!lowerOrDigit || (i == 0 && c <= '9')) {
          return false;
        }
        segmentStart = false;
      } else if (c == '.') {
        segmentStart = true;
      } else if (!lowerOrDigit && c != '-') {
        return false;
      }
    }
    return !segmentStart;
  }

  /** A boolean key. */
  public static ConfigKey<Boolean> bool(
      String name, boolean defaultValue, String feature, String description) {
    return new ConfigKey<>(name, ValueType.BOOLEAN, defaultValue, feature, description);
  }

  /** A whole-number key. */
  public static ConfigKey<Integer> integer(
      String name, int defaultValue, String feature, String description) {
    return new ConfigKey<>(name, ValueType.INTEGER, defaultValue, feature, description);
  }

  /** A decimal key. */
  public static ConfigKey<Double> decimal(
      String name, double defaultValue, String feature, String description) {
    return new ConfigKey<>(name, ValueType.DECIMAL, defaultValue, feature, description);
  }

  /** A duration key ({@code 250ms}, {@code 30s}, {@code 5m}). */
  public static ConfigKey<Duration> duration(
      String name, Duration defaultValue, String feature, String description) {
    return new ConfigKey<>(name, ValueType.DURATION_TYPE, defaultValue, feature, description);
  }

  /** A key holding ascending durations ({@code 1ms,10ms,1s}). */
  public static ConfigKey<List<Duration>> durations(
      String name, List<Duration> defaultValue, String feature, String description) {
    return new ConfigKey<>(
        name, ValueType.DURATIONS, List.copyOf(defaultValue), feature, description);
  }

  /** A size key in bytes ({@code 64KiB}, {@code 4MiB}). */
  public static ConfigKey<Long> size(
      String name, long defaultValue, String feature, String description) {
    return new ConfigKey<>(name, ValueType.SIZE_TYPE, defaultValue, feature, description);
  }

  /** A text key. */
  public static ConfigKey<String> string(
      String name, String defaultValue, String feature, String description) {
    return new ConfigKey<>(name, ValueType.STRING, defaultValue, feature, description);
  }

  /**
   * A secret text key, empty by default; its value is never shown (see {@link ValueType#SECRET}).
   */
  public static ConfigKey<String> secret(String name, String feature, String description) {
    return new ConfigKey<>(name, ValueType.SECRET, "", feature, description);
  }

  /** An enum key, matched case-insensitively. */
  public static <E extends Enum<E>> ConfigKey<E> enumKey(
      String name, Class<E> type, E defaultValue, String feature, String description) {
    return new ConfigKey<>(name, ValueType.ofEnum(type), defaultValue, feature, description);
  }

  /** The default written the way a user would type it. */
  public String defaultText() {
    return type.format(defaultValue);
  }
}
