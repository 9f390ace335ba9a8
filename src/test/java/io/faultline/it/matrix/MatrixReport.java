package io.faultline.it.matrix;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.opentest4j.TestAbortedException;

/**
 * The version matrix's table ({@code ./mvnw verify -Pmatrix}): each matrix test records one row per
 * library version, whatever its check's outcome, and {@link #write()} writes the rows so far to
 * {@code target/matrix/compatibility.md} and prints them. The matrix classes run in one test JVM,
 * so the last write holds every row; docs/compatibility.md carries the table of a run.
 */
public final class MatrixReport {

  /** What a version's check found and what it checked. */
  public record Cell(String result, String checked) {

    /** The agent or library works on this version; {@code checked} says what was checked. */
    public static Cell supported(String checked) {
      return new Cell("supported", checked);
    }

    /**
     * The agent's main instrumentation declined this version cleanly ({@code which} says what
     * declined); {@code checked} says how that was checked.
     */
    public static Cell declined(String which, String checked) {
      return new Cell("**not supported**: " + which, checked);
    }
  }

  /** A version's check: returns its cell, or throws when the version fails it. */
  @FunctionalInterface
  public interface Check {
    Cell run() throws Exception;
  }

  private record Row(String library, String version, String runtime, Cell cell) {}

  private static final List<Row> ROWS = new ArrayList<>();

  private MatrixReport() {}

  /**
   * Runs {@code check} for {@code library} {@code version} on {@code runtime} and records its row:
   * its cell, or FAILED with the first line of the failure, or skipped with the reason; a failure
   * or skip is rethrown so the test shows it too.
   */
  public static void check(String library, String version, String runtime, Check check)
      throws Exception {
    try {
      record(library, version, runtime, check.run());
    } catch (TestAbortedException e) {
      record(library, version, runtime, new Cell("skipped", firstLine(e)));
      throw e;
    } catch (Exception | AssertionError e) {
      record(library, version, runtime, new Cell("**FAILED**", firstLine(e)));
      throw e;
    }
  }

  private static synchronized void record(String library, String version, String runtime, Cell c) {
    ROWS.add(new Row(library, version, runtime, c));
  }

  private static String firstLine(Throwable e) {
    String message = String.valueOf(e.getMessage()).strip();
    int newline = message.indexOf('\n');
    return e.getClass().getSimpleName()
        + ": "
        + (newline < 0 ? message : message.substring(0, newline).strip());
  }

  /** The rows so far as a Markdown table. */
  public static synchronized String table() {
    StringBuilder b =
        new StringBuilder(
            "| library | version | runs on | result | what was checked |\n|---|---|---|---|---|\n");
    for (Row r : ROWS) {
      b.append("| ")
          .append(r.library())
          .append(" | ")
          .append(r.version())
          .append(" | ")
          .append(r.runtime())
          .append(" | ")
          .append(r.cell().result())
          .append(" | ")
          .append(r.cell().checked().replace("|", "\\|"))
          .append(" |\n");
    }
    return b.toString();
  }

  /** Writes the rows so far to the matrix folder's compatibility.md and prints them. */
  public static void write() {
    String dir = System.getProperty("faultline.it.matrix.dir", "target/matrix");
    String text = "# Version matrix\n\n" + table();
    try {
      Path dirPath = Path.of(dir);
      Files.createDirectories(dirPath);
      Files.writeString(dirPath.resolve("compatibility.md"), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    System.out.println("[faultline-it] version matrix so far (" + dir + "/compatibility.md):");
    System.out.println(text);
  }

  /** A jar the matrix profile copied: {@code <prefix>-<version>.jar} in the matrix folder. */
  public static Path jar(String prefix, String version) {
    Path jar =
        Path.of(System.getProperty("faultline.it.matrix.dir", "target/matrix"))
            .resolve(prefix + "-" + version + ".jar");
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: run with -Pmatrix (src/test/pom.xml)");
    }
    return jar;
  }

  /** The versions the matrix profile lists in {@code property} (comma-separated). */
  public static List<String> versions(String property) {
    String list = System.getProperty(property, "").strip();
    if (list.isEmpty()) {
      throw new IllegalStateException(property + " is not set: run with -Pmatrix");
    }
    return List.of(list.split("\\s*,\\s*"));
  }
}
