package io.faultline.core.finding;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The catalogue entry of one kind of finding, declared once in code: its stable id, default
 * severity, a one-line title, why it matters (the incident behind it), what to do, and the anchor
 * of its section in {@code docs/findings.md}. Modules publish their types through a {@link
 * FindingCatalog}, which is how the documentation check finds them all.
 *
 * @param id stable upper-snake-case id, e.g. {@code SYN_COOKIES_WITHOUT_TIMESTAMPS}
 * @param defaultSeverity the severity a finding of this type has unless the check says otherwise
 * @param title one line saying what was found
 * @param why why it matters, naming the incident it comes from
 * @param remediation what to do about it
 * @param incidents the incidents of {@code docs/incidents.md} it answers, empty when none
 */
public record FindingType(
    String id,
    Severity defaultSeverity,
    String title,
    String why,
    String remediation,
    List<Incident> incidents) {

  /** The command that prints a finding's documentation from the agent jar, without its id. */
  public static final String EXPLAIN_COMMAND = "java -jar faultline-agent.jar explain";

  /** Validates the declaration; a malformed one is a programming error caught by the first test. */
  public FindingType {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(defaultSeverity, "defaultSeverity");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(why, "why");
    Objects.requireNonNull(remediation, "remediation");
    incidents = List.copyOf(incidents);
    if (!isId(id)) {
      throw new IllegalArgumentException("finding id must be UPPER_SNAKE_CASE: " + id);
    }
  }

  /**
   * Whether {@code id} reads {@code [A-Z][A-Z0-9]*(_[A-Z0-9]+)*}. By hand, not with a regular
   * expression: every finding type is declared while the agent starts, and compiling the pattern
   * there spun the JDK's character-class lambdas.
   */
  static boolean isId(String id) {
    boolean segmentStart = true;
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean upperOrDigit = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (segmentStart) {
        if (!upperOrDigit || (i == 0 && c <= '9')) {
          return false;
        }
        segmentStart = false;
      } else if (c == '_') {
        segmentStart = true;
      } else if (!upperOrDigit) {
        return false;
      }
    }
    return !segmentStart;
  }

  // equals and hashCode written out: a record's generated ones bootstrap method handles at their
  // first call, which the agent's start paid for (the catalogs are checked for duplicates).
  @Override
  public boolean equals(Object o) {
    return o instanceof FindingType t
        && t.id.equals(id)
        && t.defaultSeverity == defaultSeverity
        && t.title.equals(title)
        && t.why.equals(why)
        && t.remediation.equals(remediation)
        && t.incidents.equals(incidents);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, defaultSeverity, title, why, remediation, incidents);
  }

  /** A type that comes from no incident of {@code docs/incidents.md}. */
  public FindingType(
      String id, Severity defaultSeverity, String title, String why, String remediation) {
    this(id, defaultSeverity, title, why, remediation, List.of());
  }

  /** A type that answers one incident of {@code docs/incidents.md}. */
  public FindingType(
      String id,
      Severity defaultSeverity,
      String title,
      String why,
      String remediation,
      Incident incident) {
    this(id, defaultSeverity, title, why, remediation, List.of(incident));
  }

  /**
   * The anchor of this finding's section in {@code docs/findings.md}, e.g. {@code
   * #syn_cookies_...}.
   */
  public String docsAnchor() {
    return "docs/findings.md#" + id.toLowerCase(Locale.ROOT);
  }

  /**
   * Where a reader finds this finding explained, with or without the repository: the docs section
   * and the agent jar's {@code explain} command. Every text that points a reader to the docs uses
   * this.
   */
  public String docsReference() {
    return docsAnchor() + " or: " + EXPLAIN_COMMAND + " " + id;
  }
}
