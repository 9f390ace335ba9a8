package io.faultline.examples.demo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One finding as the agent's {@code /faultline/findings} endpoint reports it.
 *
 * @param id the finding type, e.g. {@code JOOQ_SAVEPOINT_AFTER_ROW_LOCK}
 * @param severity INFO, WARNING or CRITICAL
 * @param subject what it is about (a call site, a broker node, a destination)
 * @param message the finding's own sentence
 * @param evidence the numbers behind it
 * @param remediation what to do
 * @param docs where the docs explain it
 */
record FindingView(
    String id,
    String severity,
    String subject,
    String message,
    Map<String, String> evidence,
    String remediation,
    String docs) {

  /** The findings of a {@code /faultline/findings} body. */
  @SuppressWarnings("unchecked")
  static List<FindingView> parseAll(String body) {
    Map<String, Object> root = (Map<String, Object>) Json.parse(body);
    List<Object> items = (List<Object>) root.getOrDefault("findings", List.of());
    return items.stream().map(o -> of((Map<String, Object>) o)).toList();
  }

  @SuppressWarnings("unchecked")
  private static FindingView of(Map<String, Object> m) {
    Map<String, String> evidence = new LinkedHashMap<>();
    Object e = m.get("evidence");
    if (e instanceof Map<?, ?> map) {
      ((Map<String, Object>) map).forEach((k, v) -> evidence.put(k, text(v)));
    }
    return new FindingView(
        text(m.get("id")),
        text(m.get("severity")),
        text(m.get("subject")),
        text(m.get("message")),
        evidence,
        text(m.get("remediation")),
        text(m.get("docs")));
  }

  private static String text(Object o) {
    if (o == null) {
      return "";
    }
    if (o instanceof Double d && d == Math.rint(d) && !d.isInfinite()) {
      return Long.toString(d.longValue());
    }
    return o.toString();
  }
}
