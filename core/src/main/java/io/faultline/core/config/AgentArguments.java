package io.faultline.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the agent argument string, {@code -javaagent:faultline-agent.jar=key=value,key=value}.
 *
 * <p>Syntax: fragments separated by {@code ,}; each is {@code key=value}, spaces around key and
 * value ignored. A value containing a comma (or leading/trailing spaces) is written in double
 * quotes: {@code tags="a,b"}; inside quotes {@code \"} is a quote and {@code \\} a backslash, and
 * any other backslash is kept as it is (so {@code "C:\faultline"} works). Only the first {@code =}
 * separates key from value, so {@code k=a=b} sets {@code k} to {@code a=b}.
 *
 * <p>Malformed fragments never throw: an empty fragment is a warning, a fragment with no {@code =},
 * no key, an unterminated quote or text after a closing quote is an error, and the fragment is
 * skipped. A repeated key keeps its last value, with a warning.
 */
final class AgentArguments {

  static final String SOURCE = "agent argument";

  private final String text;
  private final Problems problems;
  private final List<Setting> settings = new ArrayList<>();
  private int pos;

  private AgentArguments(String text, Problems problems) {
    this.text = text;
    this.problems = problems;
  }

  /** The settings in {@code text}, in order, with duplicates still present. */
  static List<Setting> parse(String text, Problems problems) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    AgentArguments parser = new AgentArguments(text, problems);
    parser.parseAll();
    return parser.settings;
  }

  private void parseAll() {
    int fragment = 0;
    while (pos <= text.length()) {
      fragment++;
      parseFragment(fragment);
      pos++; // past the ',' (or past the end, which ends the loop)
    }
  }

  private void parseFragment(int fragment) {
    int start = pos;
    int equals = -1;
    while (pos < text.length() && text.charAt(pos) != ',') {
      if (text.charAt(pos) == '=') {
        equals = pos;
        break;
      }
      pos++;
    }
    if (equals < 0) {
      String piece = text.substring(start, pos);
      if (piece.isBlank()) {
        problems.warning(
            "",
            where(fragment),
            "empty fragment ignored; separate settings with a single comma: key=value,key=value");
      } else {
        problems.error(
            "",
            where(fragment),
            Printable.quote(piece.trim())
                + " has no '='; write key=value (e.g. "
                + Printable.shorten(piece.trim())
                + "=true)");
      }
      return;
    }
    String key = text.substring(start, equals).trim();
    pos = equals + 1;
    skipSpaces();
    String value;
    if (pos < text.length() && text.charAt(pos) == '"') {
      value = quotedValue(fragment, key);
      if (value == null) {
        return;
      }
    } else {
      int valueStart = pos;
      while (pos < text.length() && text.charAt(pos) != ',') {
        pos++;
      }
      value = text.substring(valueStart, pos).trim();
    }
    if (key.isEmpty()) {
      problems.error(
          "",
          where(fragment),
          "fragment '=" + Printable.shorten(value) + "' has no key; write key=value");
      return;
    }
    settings.add(new Setting(key, key, value, Setting.Kind.AGENT_ARGUMENT, SOURCE));
  }

  /** Reads a quoted value starting at the opening quote; null (and a problem) when malformed. */
  private String quotedValue(int fragment, String key) {
    StringBuilder value = new StringBuilder();
    pos++; // opening quote
    while (true) {
      if (pos >= text.length()) {
        problems.error(
            Printable.shorten(key),
            where(fragment),
            "quoted value has no closing '\"'; close the quote, and write a quote inside a value"
                + " as \\\"");
        return null;
      }
      char c = text.charAt(pos);
      if (c == '"') {
        pos++;
        break;
      }
      if (c == '\\' && pos + 1 < text.length()) {
        char next = text.charAt(pos + 1);
        if (next == '"' || next == '\\') {
          value.append(next);
          pos += 2;
          continue;
        }
      }
      value.append(c);
      pos++;
    }
    skipSpaces();
    if (pos < text.length() && text.charAt(pos) != ',') {
      int junkStart = pos;
      while (pos < text.length() && text.charAt(pos) != ',') {
        pos++;
      }
      problems.error(
          Printable.shorten(key),
          where(fragment),
          "text "
              + Printable.quote(text.substring(junkStart, pos))
              + " after the closing quote; put the whole value inside the quotes");
      return null;
    }
    return value.toString();
  }

  private void skipSpaces() {
    while (pos < text.length() && text.charAt(pos) == ' ') {
      pos++;
    }
  }

  private static String where(int fragment) {
    return SOURCE + ", fragment " + fragment;
  }
}
