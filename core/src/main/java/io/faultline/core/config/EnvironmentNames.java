package io.faultline.core.config;

import java.util.Locale;

/**
 * Maps configuration keys to environment variable names and back.
 *
 * <p>The variable is {@code FAULTLINE_} followed by the key in upper case, with each {@code .}
 * written as {@code _} and each {@code -} as {@code __}: {@code kafka.tcp.interval} is {@code
 * FAULTLINE_KAFKA_TCP_INTERVAL}, {@code findings.log-interval} is {@code
 * FAULTLINE_FINDINGS_LOG__INTERVAL}. Reading back, {@code __} becomes {@code -} and a single {@code
 * _} becomes {@code .}, left to right.
 */
public final class EnvironmentNames {

  /** Every Faultline environment variable starts with this. */
  public static final String PREFIX = "FAULTLINE_";

  private EnvironmentNames() {}

  /** The environment variable that sets {@code key}. */
  public static String of(String key) {
    return PREFIX + key.toUpperCase(Locale.ROOT).replace("-", "__").replace('.', '_');
  }

  /** The key an environment variable sets, or null when the name does not start with the prefix. */
  static String toKey(String variable) {
    if (!variable.startsWith(PREFIX)) {
      return null;
    }
    String rest = variable.substring(PREFIX.length());
    StringBuilder key = new StringBuilder(rest.length());
    for (int i = 0; i < rest.length(); i++) {
      char c = rest.charAt(i);
      if (c == '_' && i + 1 < rest.length() && rest.charAt(i + 1) == '_') {
        key.append('-');
        i++;
      } else if (c == '_') {
        key.append('.');
      } else {
        key.append(Character.toLowerCase(c));
      }
    }
    return key.toString();
  }
}
