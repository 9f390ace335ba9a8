package io.faultline.jooq.internal;

import io.faultline.jooq.SqlLiterals;

/**
 * SQL text as the guard shows it: on one line, at most a given length, and by default with its
 * literals masked ({@link SqlLiterals#MASK}), the way OpenTelemetry's SQL sanitizer does.
 *
 * <p>Masking is one hand-written pass over PostgreSQL's lexical rules, no regular expressions:
 * string constants ({@code '...'} with {@code ''} inside; {@code E'...'} with backslash escapes;
 * {@code B''}, {@code X''}, {@code N''}, {@code U&''}), dollar-quoted strings ({@code $$...$$},
 * {@code $tag$...$tag$}) and numbers (integers, decimals, exponents, {@code 0x}/{@code 0o}/{@code
 * 0b}, {@code 1_000}) become {@code ?}; comments ({@code --} to the end of the line, {@code /*
 * ...*}{@code /}, nested as PostgreSQL nests them) are dropped like whitespace. Identifiers (with
 * their digits: {@code t1}), keywords, quoted identifiers, operators, casts and parameters ({@code
 * ?}, {@code $1}, {@code :name}) stay. A literal or quoted identifier left open masks the rest of
 * the text. Plain strings follow {@code standard_conforming_strings = on} (PostgreSQL's default
 * since 9.1): a backslash escapes only inside {@code E''}.
 *
 * <p>Runs of whitespace and control characters become one space, so a statement cannot add lines to
 * a log. The work is bounded whatever the input: at most {@link #SCAN_LIMIT} characters are read,
 * the output stops at the requested length, and a cut text ends with {@code ...}.
 */
public final class SqlText {

  /** Characters of a statement read at most; the rest is cut (and said to be). */
  public static final int SCAN_LIMIT = 64 * 1024;

  /** Dollar-quote tags longer than this are not looked for: the rest of the text is masked. */
  private static final int MAX_DOLLAR_TAG = 64;

  private static final String ELLIPSIS = "...";

  private SqlText() {}

  /**
   * {@code sql} on one line, at most {@code maxChars} long (plus {@code ...} when cut), with its
   * literals masked unless {@code literals} is {@link SqlLiterals#KEEP}; {@code ""} for null.
   */
  public static String shown(String sql, SqlLiterals literals, int maxChars) {
    if (sql == null) {
      return "";
    }
    return literals == SqlLiterals.KEEP ? oneLine(sql, maxChars) : masked(sql, maxChars);
  }

  /** {@code sql} with literals masked and comments dropped, on one line, bounded. */
  public static String masked(String sql, int maxChars) {
    boolean cut = sql.length() > SCAN_LIMIT;
    String s = cut ? sql.substring(0, SCAN_LIMIT) : sql;
    int n = s.length();
    Out out = new Out(maxChars);
    int i = 0;
    while (i < n && !out.full) {
      char c = s.charAt(i);
      char next = i + 1 < n ? s.charAt(i + 1) : 0;
      if (isSpace(c)) {
        out.space();
        i++;
      } else if (c == '-' && next == '-') {
        i = lineCommentEnd(s, i + 2);
        out.space();
      } else if (c == '/' && next == '*') {
        i = blockCommentEnd(s, i + 2);
        out.space();
      } else if (c == '\'') {
        i = orEnd(quotedEnd(s, i + 1, '\'', false), n);
        out.literal();
      } else if (isIdentStart(c)) {
        i = word(s, i, c, next, out);
      } else if (c == '"') {
        int end = quotedEnd(s, i + 1, '"', false);
        if (end < 0) {
          out.literal();
          i = n;
        } else {
          out.append(s, i, end);
          i = end;
        }
      } else if (isDigit(c) || (c == '.' && isDigit(next))) {
        i = numberEnd(s, i);
        out.literal();
      } else if (c == '$') {
        i = dollar(s, i, next, out);
      } else {
        out.append(s, i, i + 1);
        i++;
      }
    }
    return out.finish(cut || i < n);
  }

  /** {@code sql} as it is, whitespace runs made one space, bounded. */
  public static String oneLine(String sql, int maxChars) {
    boolean cut = sql.length() > SCAN_LIMIT;
    int n = Math.min(sql.length(), SCAN_LIMIT);
    Out out = new Out(maxChars);
    int i = 0;
    while (i < n && !out.full) {
      if (isSpace(sql.charAt(i))) {
        out.space();
      } else {
        out.append(sql, i, i + 1);
      }
      i++;
    }
    return out.finish(cut || i < n);
  }

  /**
   * An identifier or keyword at {@code i}, or a string constant with a one-letter prefix ({@code
   * E'}, {@code B'}, {@code X'}, {@code N'}, {@code U&'}); returns where the token ends.
   */
  private static int word(String s, int i, char c, char next, Out out) {
    int n = s.length();
    char lower = (char) (c | 0x20);
    if (next == '\'' && (lower == 'e' || lower == 'b' || lower == 'x' || lower == 'n')) {
      out.literal();
      return orEnd(quotedEnd(s, i + 2, '\'', lower == 'e'), n);
    }
    if (lower == 'u' && next == '&' && i + 2 < n && s.charAt(i + 2) == '\'') {
      out.literal();
      return orEnd(quotedEnd(s, i + 3, '\'', false), n);
    }
    int end = i + 1;
    while (end < n && isIdentPart(s.charAt(end))) {
      end++;
    }
    out.append(s, i, end);
    return end;
  }

  /** At a {@code $}: a parameter ({@code $1}), a dollar-quoted string, or just the character. */
  private static int dollar(String s, int i, char next, Out out) {
    int n = s.length();
    if (isDigit(next)) {
      int end = i + 1;
      while (end < n && isDigit(s.charAt(end))) {
        end++;
      }
      out.append(s, i, end);
      return end;
    }
    int tagEnd = i + 1;
    if (tagEnd < n && isIdentStart(s.charAt(tagEnd))) {
      tagEnd++;
      while (tagEnd < n && (isIdentStart(s.charAt(tagEnd)) || isDigit(s.charAt(tagEnd)))) {
        tagEnd++;
      }
    }
    if (tagEnd >= n || s.charAt(tagEnd) != '$') {
      out.append(s, i, i + 1);
      return i + 1;
    }
    out.literal();
    int tagLength = tagEnd + 1 - i;
    if (tagLength > MAX_DOLLAR_TAG) {
      return n;
    }
    int close = s.indexOf(s.substring(i, tagEnd + 1), tagEnd + 1);
    return close < 0 ? n : close + tagLength;
  }

  /**
   * Where a quoted token whose body starts at {@code from} ends (just after its closing {@code
   * quote}), or -1 when it is not closed. A doubled quote is one character of the body; with {@code
   * backslash}, a backslash escapes the next character.
   */
  private static int quotedEnd(String s, int from, char quote, boolean backslash) {
    int n = s.length();
    int i = from;
    while (i < n) {
      char c = s.charAt(i);
      if (backslash && c == '\\') {
        i += 2;
      } else if (c == quote) {
        if (i + 1 < n && s.charAt(i + 1) == quote) {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return -1;
  }

  private static int orEnd(int end, int n) {
    return end < 0 ? n : end;
  }

  /** After a {@code --}: the line break ending the comment (whitespace itself), or the end. */
  private static int lineCommentEnd(String s, int from) {
    int n = s.length();
    int i = from;
    while (i < n && s.charAt(i) != '\n' && s.charAt(i) != '\r') {
      i++;
    }
    return i;
  }

  /** After a {@code /*}: just past the matching close, counting nested comments, or the end. */
  private static int blockCommentEnd(String s, int from) {
    int n = s.length();
    int depth = 1;
    int i = from;
    while (i < n) {
      char c = s.charAt(i);
      char next = i + 1 < n ? s.charAt(i + 1) : 0;
      if (c == '/' && next == '*') {
        depth++;
        i += 2;
      } else if (c == '*' && next == '/') {
        i += 2;
        if (--depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    return n;
  }

  /**
   * A number from {@code from}: digits (and {@code _}), a fraction, an exponent's sign, and any
   * letters or digits stuck to it ({@code 0x1F}, {@code 1e5}, {@code 12abc}), so none is left
   * behind.
   */
  private static int numberEnd(String s, int from) {
    int n = s.length();
    int i = from;
    while (i < n && (isDigit(s.charAt(i)) || s.charAt(i) == '_')) {
      i++;
    }
    if (i < n && s.charAt(i) == '.' && !(i + 1 < n && s.charAt(i + 1) == '.')) {
      i++;
      while (i < n && (isDigit(s.charAt(i)) || s.charAt(i) == '_')) {
        i++;
      }
    }
    if (i + 2 < n
        && (s.charAt(i) | 0x20) == 'e'
        && (s.charAt(i + 1) == '+' || s.charAt(i + 1) == '-')
        && isDigit(s.charAt(i + 2))) {
      i += 2;
    }
    while (i < n && isIdentPart(s.charAt(i))) {
      i++;
    }
    return i;
  }

  /** Whitespace, control characters and Unicode separators: all one space when shown. */
  private static boolean isSpace(char c) {
    return c <= ' ' || c == 0x7F || Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** PostgreSQL's identifier start: a letter, {@code _}, or any non-ASCII character. */
  private static boolean isIdentStart(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || (c >= 0x80 && !isSpace(c));
  }

  private static boolean isIdentPart(char c) {
    return isIdentStart(c) || isDigit(c) || c == '$';
  }

  /** The bounded output: one pending space between tokens, none at either end. */
  private static final class Out {
    private final StringBuilder text;
    private final int max;
    private boolean space;
    boolean full;

    Out(int max) {
      this.max = Math.max(1, max);
      this.text = new StringBuilder(Math.min(this.max, 256) + ELLIPSIS.length());
    }

    void space() {
      space = text.length() > 0;
    }

    void literal() {
      append("?", 0, 1);
    }

    /** Appends {@code s[from, to)}, control characters as spaces, up to the limit. */
    void append(String s, int from, int to) {
      if (full) {
        return;
      }
      if (space) {
        space = false;
        if (!put(' ')) {
          return;
        }
      }
      for (int i = from; i < to; i++) {
        char c = s.charAt(i);
        if (!put(isSpace(c) ? ' ' : c)) {
          return;
        }
      }
    }

    private boolean put(char c) {
      if (text.length() >= max) {
        full = true;
        return false;
      }
      text.append(c);
      return true;
    }

    String finish(boolean cut) {
      if (!cut && !full) {
        return text.toString();
      }
      int end = text.length();
      // Never leave half of a surrogate pair before the ellipsis.
      if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
        text.setLength(end - 1);
      }
      int trimmed = text.length();
      while (trimmed > 0 && text.charAt(trimmed - 1) == ' ') {
        trimmed--;
      }
      text.setLength(trimmed);
      return text.append(ELLIPSIS).toString();
    }
  }
}
