package io.faultline.core.docs;

import java.util.List;

/** Small helpers for writing Markdown tables that survive any text in a cell. */
final class Markdown {

  private Markdown() {}

  /** {@code text} safe inside a table cell: no line breaks, pipes escaped. */
  static String cell(String text) {
    return text.replace("\r", "").replace("\n", " ").replace("|", "\\|");
  }

  /** {@code text} as inline code, or {@code (empty)} when empty. */
  static String code(String text) {
    return text.isEmpty() ? "(empty)" : "`" + text.replace("`", "'") + "`";
  }

  /** One table row. */
  static String row(List<String> cells) {
    StringBuilder row = new StringBuilder("|");
    for (String cell : cells) {
      row.append(' ').append(cell).append(" |");
    }
    return row.append('\n').toString();
  }

  /** A header row and its separator. */
  static String header(String... titles) {
    StringBuilder separator = new StringBuilder("|");
    for (int i = 0; i < titles.length; i++) {
      separator.append("---|");
    }
    return row(List.of(titles)) + separator + "\n";
  }
}
