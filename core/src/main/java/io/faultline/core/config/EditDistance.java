package io.faultline.core.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Finds the known key closest to a mistyped one, for "did you mean" suggestions. */
final class EditDistance {

  private EditDistance() {}

  /**
   * The candidate closest to {@code typed} (case-insensitively), if it is close enough to be a
   * plausible typo: at most a third of the typed length and never more than 3 edits. Ties go to the
   * alphabetically first candidate so the suggestion is stable.
   */
  static Optional<String> closest(String typed, Collection<String> candidates) {
    String wanted = typed.toLowerCase(Locale.ROOT);
    int limit = Math.min(3, Math.max(1, wanted.length() / 3));
    String best = null;
    int bestDistance = limit + 1;
    for (String candidate : candidates) {
      // The length difference is a lower bound of the distance: skip without computing, which also
      // keeps a 1 MB garbage key cheap.
      if (Math.abs(candidate.length() - wanted.length()) >= bestDistance) {
        continue;
      }
      int d = levenshtein(wanted, candidate);
      if (d < bestDistance
          || (d == bestDistance && best != null && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestDistance = d;
      }
    }
    return bestDistance <= limit ? Optional.ofNullable(best) : Optional.empty();
  }

  /** Levenshtein distance between {@code a} and {@code b}. */
  static int levenshtein(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
