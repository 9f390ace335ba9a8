package io.faultline.it.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The spells of each finding over a soak: from the first sample that saw it active to the last one
 * before a sample that did not, in seconds from the soak's start.
 */
final class FindingSpells {

  /** One spell; {@code cleared} is false when it was still active at the last sample. */
  record Spell(String finding, double first, double last, boolean cleared) {

    boolean aboutTheService() {
      return FindingsWatch.aboutTheService(finding);
    }
  }

  private final Map<String, double[]> open = new LinkedHashMap<>();
  private final List<Spell> closed = new ArrayList<>();

  /** Records the findings active at {@code seconds}. */
  synchronized void update(double seconds, Set<String> active) {
    for (var it = open.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (!active.contains(e.getKey())) {
        closed.add(new Spell(e.getKey(), e.getValue()[0], e.getValue()[1], true));
        it.remove();
      }
    }
    for (String f : active) {
      open.computeIfAbsent(f, k -> new double[] {seconds, seconds})[1] = seconds;
    }
  }

  /** Every spell, those still active last. */
  synchronized List<Spell> all() {
    List<Spell> out = new ArrayList<>(closed);
    open.forEach((f, t) -> out.add(new Spell(f, t[0], t[1], false)));
    return out;
  }
}
