package io.faultline.core.host;

import java.util.Collection;
import java.util.Map;

/**
 * A minimal JSON writer for the doctor's {@code --json}: objects, arrays, strings, numbers,
 * booleans and null, with strings escaped per RFC 8259 (quote, backslash and every control
 * character). Core carries no JSON library on purpose: it is shaded into applications.
 */
public final class JsonWriter {

  private JsonWriter() {}

  /**
   * Writes {@code value}: a {@link Map} (keys as strings) becomes an object, a {@link Collection}
   * an array, a {@link Number} or {@link Boolean} itself (non-finite numbers as strings), {@code
   * null} null, anything else its {@code toString()} as a string.
   */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    append(out, value);
    return out.toString();
  }

  private static void append(StringBuilder out, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        string(out, String.valueOf(e.getKey()));
        out.append(':');
        append(out, e.getValue());
      }
      out.append('}');
    } else if (value instanceof Collection) {
      out.append('[');
      boolean first = true;
      for (Object item : (Collection<?>) value) {
        if (!first) {
          out.append(',');
        }
        first = false;
        append(out, item);
      }
      out.append(']');
    } else if (value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isFinite(d)) {
        out.append(value);
      } else {
        string(out, String.valueOf(d));
      }
    } else if (value instanceof Number) {
      out.append(value);
    } else {
      string(out, value.toString());
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            // U+2028/2029 are legal JSON but break JavaScript consumers; escaping is harmless.
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
