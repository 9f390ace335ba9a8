package io.faultline.it.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the generated part of {@code docs/benchmarks.md} between {@value #BEGIN} and {@value
 * #END}, keeping every other line of the file (hand-written sections, other engineers' sections) as
 * it is. Without the markers yet, the generated part goes right after the title line.
 */
final class ReportFile {

  static final String BEGIN = "<!-- benchmarks:begin -->";
  static final String END = "<!-- benchmarks:end -->";

  private ReportFile() {}

  /** {@code existing} with the generated part replaced by {@code generated}. */
  static String splice(String existing, String generated) {
    String block = BEGIN + "\n" + generated.strip() + "\n" + END;
    int begin = existing.indexOf(BEGIN);
    int end = existing.indexOf(END);
    if (begin >= 0 && end > begin) {
      return existing.substring(0, begin) + block + existing.substring(end + END.length());
    }
    if (existing.startsWith("# ")) {
      int eol = existing.indexOf('\n');
      String title = eol < 0 ? existing : existing.substring(0, eol);
      String rest = eol < 0 ? "" : existing.substring(eol + 1);
      return title + "\n\n" + block + "\n\n" + rest.stripLeading();
    }
    return "# Benchmarks\n\n" + block + "\n\n" + existing;
  }

  static void write(Path file, String generated) throws IOException {
    String existing = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    Files.writeString(file, splice(existing, generated), StandardCharsets.UTF_8);
  }
}
