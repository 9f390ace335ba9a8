package io.faultline.examples.demo;

import java.util.List;

/** The table printed at the end: scene, expected finding, found yes/no, key figure. */
final class SummaryTable {

  private SummaryTable() {}

  record Row(Scene scene, SceneOutcome outcome) {}

  static String render(List<Row> rows) {
    String[] header = {"scene", "expected", "found", "key figure"};
    String[][] cells = new String[rows.size()][];
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      SceneOutcome o = r.outcome();
      cells[i] =
          new String[] {
            r.scene().name(),
            r.scene().expected(),
            o.ran() ? (o.found() ? "yes" : "NO") : "skipped",
            o.ran() ? o.keyFigure() : o.skipped()
          };
    }
    int[] width = new int[header.length];
    for (int c = 0; c < header.length; c++) {
      width[c] = header[c].length();
      for (String[] row : cells) {
        width[c] = Math.max(width[c], c == 3 ? 0 : row[c].length());
      }
    }
    StringBuilder out = new StringBuilder();
    appendRow(out, header, width);
    appendRow(
        out,
        new String[] {
          "-".repeat(width[0]), "-".repeat(width[1]), "-".repeat(width[2]), "-".repeat(10)
        },
        width);
    for (String[] row : cells) {
      appendRow(out, row, width);
    }
    return out.toString();
  }

  private static void appendRow(StringBuilder out, String[] row, int[] width) {
    out.append("   ");
    for (int c = 0; c < row.length; c++) {
      out.append(c == row.length - 1 ? row[c] : String.format("%-" + width[c] + "s  ", row[c]));
    }
    out.append('\n');
  }
}
