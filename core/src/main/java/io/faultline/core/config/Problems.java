package io.faultline.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects {@link ConfigProblem}s up to a limit. Garbage input (a 1 MB agent argument of commas)
 * could otherwise produce thousands of problems and flood stderr; past the limit one summary line
 * says how many more there were.
 */
final class Problems {

  static final int LIMIT = 50;

  private final List<ConfigProblem> problems = new ArrayList<>();
  private int dropped;

  void warning(String key, String source, String message) {
    add(new ConfigProblem(ConfigProblem.Level.WARNING, key, source, message));
  }

  void error(String key, String source, String message) {
    add(new ConfigProblem(ConfigProblem.Level.ERROR, key, source, message));
  }

  void add(ConfigProblem problem) {
    if (problems.size() < LIMIT) {
      problems.add(problem);
    } else {
      dropped++;
    }
  }

  /** The problems, with a final summary when some were dropped. */
  List<ConfigProblem> toList() {
    List<ConfigProblem> all = new ArrayList<>(problems);
    if (dropped > 0) {
      all.add(
          new ConfigProblem(
              ConfigProblem.Level.WARNING,
              "",
              "configuration",
              dropped
                  + " more configuration problems were not listed; fix the ones above and restart"
                  + " to see the rest"));
    }
    return List.copyOf(all);
  }
}
