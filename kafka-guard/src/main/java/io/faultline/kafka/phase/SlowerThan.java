package io.faultline.kafka.phase;

import java.util.Set;
import jdk.jfr.SettingControl;

/**
 * The {@code slowerThan} setting of the {@code io.faultline.KafkaRequest} event: only requests at
 * least this slow are recorded (e.g. {@code 500 ms}; {@code 0 ms} records every request). Where
 * several recordings ask, the lowest wins. Public only because JDK Flight Recorder creates it.
 */
public final class SlowerThan extends SettingControl {

  /** The default: as slow as {@code kafka.phases.slow-request}'s default. */
  static final String DEFAULT = "1 s";

  private volatile String value = DEFAULT;
  private volatile long nanos = parse(DEFAULT);

  /** Made by JDK Flight Recorder. */
  public SlowerThan() {}

  long nanos() {
    return nanos;
  }

  @Override
  public String combine(Set<String> values) {
    String lowest = null;
    long lowestNanos = Long.MAX_VALUE;
    for (String v : values) {
      long n = parse(v);
      if (n < lowestNanos) {
        lowestNanos = n;
        lowest = v;
      }
    }
    return lowest == null ? DEFAULT : lowest;
  }

  @Override
  public void setValue(String text) {
    long n = parse(text);
    if (n != Long.MAX_VALUE) {
      value = text;
      nanos = n;
    }
  }

  @Override
  public String getValue() {
    return value;
  }

  /** JFR's duration text ({@code 20 ms}, {@code 1 s}, {@code 0 ns}); MAX_VALUE when unreadable. */
  static long parse(String text) {
    if (text == null) {
      return Long.MAX_VALUE;
    }
    String t = text.strip();
    int i = 0;
    while (i < t.length() && (Character.isDigit(t.charAt(i)))) {
      i++;
    }
    if (i == 0) {
      return Long.MAX_VALUE;
    }
    long amount;
    try {
      amount = Long.parseLong(t.substring(0, i));
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
    return switch (t.substring(i).strip()) {
      case "ns" -> amount;
      case "us" -> amount * 1_000L;
      case "ms" -> amount * 1_000_000L;
      case "s" -> amount * 1_000_000_000L;
      case "m" -> amount * 60_000_000_000L;
      default -> Long.MAX_VALUE;
    };
  }
}
