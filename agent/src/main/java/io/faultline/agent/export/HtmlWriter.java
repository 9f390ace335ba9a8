package io.faultline.agent.export;

import java.util.List;
import java.util.Map;

/**
 * Writes the body of a {@link StatusSection}: paragraphs, tables and key/value lists, with every
 * text escaped, so a section cannot break the page or inject markup whatever its data says.
 */
public final class HtmlWriter {

  private final StringBuilder out;

  HtmlWriter(StringBuilder out) {
    this.out = out;
  }

  /** A paragraph of text. */
  public HtmlWriter paragraph(String text) {
    out.append("<p>").append(escape(text)).append("</p>\n");
    return this;
  }

  /** A muted note, e.g. "nothing to show yet". */
  public HtmlWriter note(String text) {
    out.append("<p class=\"note\">").append(escape(text)).append("</p>\n");
    return this;
  }

  /**
   * A table. A cell whose text is one of {@code CRITICAL}, {@code WARNING}, {@code INFO}, {@code
   * OK}, or a module state, gets a matching colour class.
   */
  public HtmlWriter table(List<String> headers, List<? extends List<?>> rows) {
    out.append("<table>\n<thead><tr>");
    for (String h : headers) {
      out.append("<th>").append(escape(h)).append("</th>");
    }
    out.append("</tr></thead>\n<tbody>\n");
    for (List<?> row : rows) {
      out.append("<tr>");
      for (Object cell : row) {
        String text = String.valueOf(cell);
        out.append("<td class=\"")
            .append(cssClass(text))
            .append("\">")
            .append(escape(text))
            .append("</td>");
      }
      out.append("</tr>\n");
    }
    return appendRaw("</tbody>\n</table>\n");
  }

  /** A two-column list of names and values, in the map's order. */
  public HtmlWriter keyValues(Map<String, ?> values) {
    out.append("<dl>\n");
    values.forEach(
        (k, v) ->
            out.append("<dt>")
                .append(escape(k))
                .append("</dt><dd>")
                .append(escape(String.valueOf(v)))
                .append("</dd>\n"));
    return appendRaw("</dl>\n");
  }

  /** Preformatted text, e.g. a small report. */
  public HtmlWriter preformatted(String text) {
    out.append("<pre>").append(escape(text)).append("</pre>\n");
    return this;
  }

  private HtmlWriter appendRaw(String html) {
    out.append(html);
    return this;
  }

  private static String cssClass(String text) {
    return switch (text) {
      case "CRITICAL", "FAILED", "INCOMPATIBLE" -> "bad";
      case "WARNING", "OFF_BY_CONFIG" -> "warn";
      case "OK", "ACTIVE" -> "ok";
      default -> "";
    };
  }

  /** Escapes {@code &}, {@code <}, {@code >}, quotes and control characters for HTML text. */
  public static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
      }
    }
    return b.toString();
  }
}
