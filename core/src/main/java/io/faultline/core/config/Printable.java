package io.faultline.core.config;

import io.faultline.core.LogText;

/**
 * Makes user input safe to echo in a one-line message: control characters escaped, very long text
 * shortened. A 1 MB value or a value with a newline must not turn one problem into a flood or into
 * several log lines that look like separate messages.
 */
final class Printable {

  /** Longest piece of user input echoed back in a message. */
  static final int MAX_ECHO = 80;

  private Printable() {}

  /** {@code text} with control characters escaped ({@code \n}, {@code \u0007}). */
  static String oneLine(String text) {
    return LogText.escape(text);
  }

  /**
   * User input quoted for a message: escaped, and cut to {@value #MAX_ECHO} characters with its
   * full length noted when longer.
   */
  static String quote(String raw) {
    return raw.length() <= MAX_ECHO
        ? "'" + oneLine(raw) + "'"
        : "'" + oneLine(head(raw)) + "...' (" + raw.length() + " characters)";
  }

  /** {@code raw} escaped and cut like {@link #quote}, without the quotes; for keys in messages. */
  static String shorten(String raw) {
    return raw.length() <= MAX_ECHO
        ? oneLine(raw)
        : oneLine(head(raw)) + "... (" + raw.length() + " characters)";
  }

  /**
   * A configuration value described without its text: its length and what it starts with. A value
   * may be a secret pasted into the wrong key, so a message about it never repeats it.
   */
  static String masked(String raw) {
    int length = raw.codePointCount(0, raw.length());
    if (length == 0) {
      return "an empty value";
    }
    String trimmed = raw.strip();
    if (trimmed.isEmpty()) {
      return "a blank value of " + characters(length);
    }
    int first = trimmed.codePointAt(0);
    String kind;
    if (Character.isDigit(first)) {
      kind = "a digit";
    } else if (Character.isLetter(first)) {
      kind = "a letter";
    } else if (first == '-' || first == '+') {
      kind = "a sign";
    } else {
      kind = "a symbol";
    }
    return "a value of " + characters(length) + " starting with " + kind;
  }

  private static String characters(int n) {
    return n == 1 ? "1 character" : n + " characters";
  }

  private static String head(String raw) {
    int end = MAX_ECHO;
    if (Character.isHighSurrogate(raw.charAt(end - 1))) {
      end--;
    }
    return raw.substring(0, end);
  }
}
