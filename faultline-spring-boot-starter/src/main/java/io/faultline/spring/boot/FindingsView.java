package io.faultline.spring.boot;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Active findings as plain maps and lists, which Actuator writes as JSON as they are. */
final class FindingsView {

  private FindingsView() {}

  static List<Map<String, Object>> active(Findings findings) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Finding finding : findings.active()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("id", finding.id());
      one.put("severity", finding.severity().name());
      one.put("subject", finding.subject());
      one.put("message", finding.message());
      one.put("evidence", evidence(finding.evidence()));
      one.put("observedAt", finding.observedAt().toString());
      one.put("advice", finding.type().remediation());
      one.put("docs", finding.type().docsReference());
      out.add(one);
    }
    return out;
  }

  /** Numbers stay numbers; anything else is written as its text. */
  private static Map<String, Object> evidence(Map<String, Object> evidence) {
    Map<String, Object> out = new LinkedHashMap<>();
    evidence.forEach(
        (name, value) ->
            out.put(
                name, value instanceof Number || value instanceof Boolean ? value : "" + value));
    return out;
  }

  /** What the health contributor shows: how many findings, and each one's id, subject, message. */
  static Map<String, Object> summary(Findings findings) {
    List<Map<String, Object>> brief = new ArrayList<>();
    for (Finding finding : findings.active()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("id", finding.id());
      one.put("severity", finding.severity().name());
      one.put("subject", finding.subject());
      brief.add(one);
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("activeFindings", brief.size());
    details.put("findings", brief);
    return details;
  }
}
