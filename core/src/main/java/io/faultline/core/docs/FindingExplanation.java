package io.faultline.core.docs;

import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import java.util.List;

/**
 * A finding's documentation as plain text for a terminal: the same declaration {@link
 * ReferenceDocs} renders into {@code docs/findings.md}, for someone who has only the agent jar.
 */
public final class FindingExplanation {

  private static final int WIDTH = 100;
  private static final String INDENT = "  ";

  private FindingExplanation() {}

  /** Title, default severity, why it matters, what to do, the incidents and the docs section. */
  public static String of(FindingType type) {
    StringBuilder text = new StringBuilder();
    text.append(type.id()).append('\n');
    wrap(text, type.title(), INDENT);
    text.append('\n').append("Default severity: ").append(type.defaultSeverity()).append("\n\n");
    text.append("Why it matters:\n");
    wrap(text, type.why(), INDENT);
    text.append('\n').append("What to do:\n");
    wrap(text, type.remediation(), INDENT);
    List<Incident> incidents = type.incidents();
    if (!incidents.isEmpty()) {
      text.append('\n').append(incidents.size() == 1 ? "Incident:\n" : "Incidents:\n");
      for (Incident incident : incidents) {
        String name = incident.publicName();
        text.append(INDENT)
            .append(Character.toUpperCase(name.charAt(0)))
            .append(name, 1, name.length())
            .append(" (")
            .append(incident.docsAnchor())
            .append(")\n");
      }
    }
    text.append('\n').append("In the repository: ").append(type.docsAnchor()).append('\n');
    return text.toString();
  }

  /** Appends {@code paragraph} as lines of at most {@link #WIDTH} characters, each indented. */
  private static void wrap(StringBuilder text, String paragraph, String indent) {
    StringBuilder line = new StringBuilder(indent);
    for (String word : paragraph.split(" +")) {
      if (line.length() > indent.length() && line.length() + 1 + word.length() > WIDTH) {
        text.append(line).append('\n');
        line.setLength(0);
        line.append(indent);
      }
      if (line.length() > indent.length()) {
        line.append(' ');
      }
      line.append(word);
    }
    text.append(line).append('\n');
  }
}
