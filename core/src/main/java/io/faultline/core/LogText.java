package io.faultline.core;

/**
 * Makes a value that came from the application (a Kafka client id, a pool name, a request path, an
 * exception's message) safe inside a log line: control characters escaped, so a newline in it can
 * never start what looks like a log entry of its own, and very long text cut.
 */
public final class LogText {

  /** Longest value written into a log line. */
  static final int MAX = 200;

  private LogText() {}

  /**
   * {@code value}'s text on one line ({@link #escape escaped}) and cut to {@value #MAX} characters,
   * its full length noted when longer.
   */
  public static String oneLine(Object value) {
    String text = String.valueOf(value);
    int end = Math.min(text.length(), MAX);
    if (end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    StringBuilder out = escape(text, end);
    if (end < text.length()) {
      out.append("... (").append(text.length()).append(" characters)");
    }
    return out.toString();
  }

  /**
   * {@code text} with every control character escaped ({@code \n}, {@code \r}, {@code \t}, other
   * controls and the Unicode line separators as {@code \u0085}), whatever its length.
   */
  public static String escape(String text) {
    return escape(text, text.length()).toString();
  }

  private static StringBuilder escape(String text, int end) {
    StringBuilder out = new StringBuilder(end + 16);
    for (int i = 0; i < end; i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c == '\u0085') {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out;
  }
}
