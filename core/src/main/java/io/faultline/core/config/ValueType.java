package io.faultline.core.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the text of a configuration value becomes a typed value, and how a typed value is written
 * back (for the documentation and the status page).
 *
 * @param <T> the Java type of the value
 */
public final class ValueType<T> {

  /** {@code true}/{@code false}, also {@code on}/{@code off}, {@code yes}/{@code no}. */
  public static final ValueType<Boolean> BOOLEAN =
      new ValueType<>(Kind.BOOLEAN, "boolean", "true or false (also on/off, yes/no)", null);

  /** A whole number that fits an {@code int}. */
  public static final ValueType<Integer> INTEGER =
      new ValueType<>(Kind.INTEGER, "integer", "a whole number", null);

  /** A decimal number. */
  public static final ValueType<Double> DECIMAL =
      new ValueType<>(Kind.DECIMAL, "decimal", "a number such as 0.5", null);

  /** A duration with a unit: {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}. */
  public static final ValueType<Duration> DURATION_TYPE =
      new ValueType<>(
          Kind.DURATION, "duration", "a duration with a unit, such as 250ms, 30s, 5m, 1h", null);

  /**
   * Ascending durations with units, separated by commas: {@code 1ms,10ms,100ms,1s}. In an agent
   * argument the list is quoted, {@code key="1ms,10ms"}, as the argument's fragments are
   * comma-separated.
   */
  public static final ValueType<List<Duration>> DURATIONS =
      new ValueType<>(
          Kind.DURATIONS,
          "durations",
          "ascending durations with units separated by commas, such as 1ms,10ms,100ms,1s",
          null);

  /** A size in bytes with a unit: {@code 512B}, {@code 64KiB}, {@code 4MiB}, {@code 1GiB}. */
  public static final ValueType<Long> SIZE_TYPE =
      new ValueType<>(
          Kind.SIZE,
          "size",
          "a size with a unit, such as 64KiB, 4MiB, 1GiB (KB/MB/GB are read as KiB/MiB/GiB)",
          null);

  /** Free text, trimmed. */
  public static final ValueType<String> STRING =
      new ValueType<>(Kind.STRING, "string", "text", null);

  /**
   * Free text, trimmed, that is never written back: a set value is shown as {@code ***} (on the
   * status page, in the effective settings), an unset one as empty.
   */
  public static final ValueType<String> SECRET =
      new ValueType<>(Kind.SECRET, "secret", "text", null);

  /**
   * What a type parses and writes. A switch rather than a function per type: every value type is
   * created while the agent's {@code premain} runs, where each lambda would be a class spun at run
   * time on the application's start path.
   */
  private enum Kind {
    BOOLEAN,
    INTEGER,
    DECIMAL,
    DURATION,
    DURATIONS,
    SIZE,
    STRING,
    SECRET,
    ENUM
  }

  /** Compiled on the first duration or size parsed, not while every key is declared. */
  private static final class Patterns {
    static final Pattern DURATION =
        Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)", Pattern.CASE_INSENSITIVE);
    static final Pattern SIZE =
        Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB|KB|MB|GB|K|M|G)?", Pattern.CASE_INSENSITIVE);
  }

  private final Kind kind;
  private final String name;
  private final String expected;
  private final Class<? extends Enum<?>> enumType;

  private ValueType(Kind kind, String name, String expected, Class<? extends Enum<?>> enumType) {
    this.kind = kind;
    this.name = name;
    this.expected = expected;
    this.enumType = enumType;
  }

  /** One of an enum's constants, matched case-insensitively, {@code -} and {@code _} alike. */
  public static <E extends Enum<E>> ValueType<E> ofEnum(Class<E> type) {
    StringJoiner choices = new StringJoiner(", ");
    for (E constant : type.getEnumConstants()) {
      choices.add(constant.name().toLowerCase(Locale.ROOT));
    }
    return new ValueType<>(Kind.ENUM, "enum", "one of " + choices, type);
  }

  /** A short name of the type for the documentation: {@code duration}, {@code size}, ... */
  public String name() {
    return name;
  }

  /** What a valid value looks like, for error messages. */
  public String expected() {
    return expected;
  }

  /**
   * Parses {@code raw}.
   *
   * @throws IllegalArgumentException when {@code raw} is not a value of this type
   */
  public T parse(String raw) {
    Objects.requireNonNull(raw, "raw");
    try {
      T value = parsed(raw);
      if (value == null) {
        throw new IllegalArgumentException("no value");
      }
      return value;
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** Writes {@code value} the way a user would type it. */
  public String format(T value) {
    return switch (kind) {
      case DURATION -> formatDuration((Duration) value);
      case DURATIONS -> formatDurations((List<?>) value);
      case SIZE -> formatSize((Long) value);
      case STRING -> (String) value;
      case SECRET -> ((String) value).isEmpty() ? "" : "***";
      case ENUM -> ((Enum<?>) value).name().toLowerCase(Locale.ROOT);
      default -> String.valueOf(value);
    };
  }

  @SuppressWarnings("unchecked") // each kind parses to the T its constant or ofEnum declares
  private T parsed(String raw) {
    Object value =
        switch (kind) {
          case BOOLEAN -> parseBoolean(raw);
          case INTEGER -> Integer.valueOf(raw.trim());
          case DECIMAL -> Double.valueOf(raw.trim());
          case DURATION -> parseDuration(raw);
          case DURATIONS -> parseDurations(raw);
          case SIZE -> parseSize(raw);
          case STRING, SECRET -> raw.trim();
          case ENUM -> parseEnum(raw);
        };
    return (T) value;
  }

  private Enum<?> parseEnum(String raw) {
    String wanted = raw.trim().replace('-', '_');
    for (Enum<?> constant : enumType.getEnumConstants()) {
      if (constant.name().equalsIgnoreCase(wanted)) {
        return constant;
      }
    }
    throw new IllegalArgumentException("not " + expected);
  }

  private static Boolean parseBoolean(String raw) {
    return switch (raw.trim().toLowerCase(Locale.ROOT)) {
      case "true", "on", "yes" -> Boolean.TRUE;
      case "false", "off", "no" -> Boolean.FALSE;
      default -> throw new IllegalArgumentException("not a boolean");
    };
  }

  private static Duration parseDuration(String raw) {
    Matcher m = Patterns.DURATION.matcher(raw.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration with a unit");
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofDays(amount);
    };
  }

  private static List<Duration> parseDurations(String raw) {
    List<Duration> out = new ArrayList<>();
    for (String part : raw.split(",", -1)) {
      Duration d = parseDuration(part);
      if (d.isZero()) {
        throw new IllegalArgumentException("a duration of the list is 0");
      }
      if (!out.isEmpty() && d.compareTo(out.get(out.size() - 1)) <= 0) {
        throw new IllegalArgumentException("the durations are not ascending");
      }
      out.add(d);
    }
    return List.copyOf(out);
  }

  private static String formatDurations(List<?> list) {
    StringJoiner out = new StringJoiner(",");
    for (Object d : list) {
      out.add(formatDuration((Duration) d));
    }
    return out.toString();
  }

  private static String formatDuration(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    if (ms % 86_400_000 == 0) {
      return ms / 86_400_000 + "d";
    }
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }

  private static Long parseSize(String raw) {
    Matcher m = Patterns.SIZE.matcher(raw.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a size");
    }
    long amount = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
    long factor =
        switch (unit.charAt(0)) {
          case 'K' -> 1L << 10;
          case 'M' -> 1L << 20;
          case 'G' -> 1L << 30;
          default -> 1;
        };
    return Math.multiplyExact(amount, factor);
  }

  private static String formatSize(Long bytes) {
    long b = bytes;
    if (b != 0 && b % (1L << 30) == 0) {
      return b / (1L << 30) + "GiB";
    }
    if (b != 0 && b % (1L << 20) == 0) {
      return b / (1L << 20) + "MiB";
    }
    if (b != 0 && b % (1L << 10) == 0) {
      return b / (1L << 10) + "KiB";
    }
    return b + "B";
  }
}
