package io.faultline.it.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the primary scores out of JMH's {@code -rf json} files. */
final class JmhResults {

  /** A benchmark's score, its error (99.9 % half-width) and unit. */
  record Score(double score, double error, String unit) {}

  private static final Pattern ENTRY =
      Pattern.compile(
          "\"benchmark\"\\s*:\\s*\"([^\"]+)\".*?\"primaryMetric\"\\s*:\\s*\\{\\s*\"score\"\\s*:\\s*"
              + "([0-9.Ee+-]+|\"NaN\")\\s*,\\s*\"scoreError\"\\s*:\\s*([0-9.Ee+-]+|\"NaN\")"
              + "\\s*,.*?\"scoreUnit\"\\s*:\\s*\"([^\"]+)\"",
          Pattern.DOTALL);

  private JmhResults() {}

  /** Benchmark method (Class.method) to score, for every JSON file in {@code dir}. */
  static Map<String, Score> read(Path dir) throws IOException {
    Map<String, Score> scores = new LinkedHashMap<>();
    if (dir == null || !Files.isDirectory(dir)) {
      return scores;
    }
    try (var files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        scores.putAll(parse(Files.readString(f)));
      }
    }
    return scores;
  }

  static Map<String, Score> parse(String json) {
    Map<String, Score> scores = new LinkedHashMap<>();
    Matcher m = ENTRY.matcher(json);
    while (m.find()) {
      String name = m.group(1);
      int dot = name.lastIndexOf('.', name.lastIndexOf('.') - 1);
      scores.put(
          name.substring(dot + 1), new Score(number(m.group(2)), number(m.group(3)), m.group(4)));
    }
    return scores;
  }

  private static double number(String s) {
    return s.startsWith("\"") ? Double.NaN : Double.parseDouble(s);
  }
}
