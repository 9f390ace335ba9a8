package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes a {@link DoctorReport} as a readable table or as JSON. */
public final class ReportRenderer {

  private ReportRenderer() {}

  /**
   * The table: one row per check (name, status, scope, evidence), and under a row each finding with
   * what to do, then notes.
   */
  public static String table(DoctorReport report) {
    int nameWidth = "CHECK".length();
    for (CheckResult r : report.results()) {
      nameWidth = Math.max(nameWidth, r.check().length());
    }
    String rowFormat = "%-" + nameWidth + "s  %-11s  %-6s  %s%n";
    String indent = " ".repeat(nameWidth + 2);
    StringBuilder out = new StringBuilder();
    out.append("Faultline host doctor (").append(report.root()).append(")\n");
    if (report.environment().inContainer()) {
      out.append("Running in a container (")
          .append(String.join(", ", report.environment().signs()))
          .append("): 'netns' rows are this container's own network namespace,")
          .append(" 'host' rows are host-wide.\n");
    }
    out.append('\n');
    out.append(String.format(rowFormat, "CHECK", "STATUS", "SCOPE", "EVIDENCE"));
    for (CheckResult r : report.results()) {
      out.append(
          String.format(rowFormat, r.check(), r.status().name(), r.scope().label(), r.evidence()));
      for (Finding f : r.findings()) {
        out.append(indent)
            .append(f.severity())
            .append(' ')
            .append(f.id())
            .append(": ")
            .append(f.message())
            .append('\n');
        if (!f.type().remediation().isEmpty()) {
          out.append(indent).append("  what to do: ").append(f.type().remediation()).append('\n');
        }
        out.append(indent).append("  see: ").append(f.type().docsReference()).append('\n');
      }
      for (String note : r.notes()) {
        out.append(indent).append("note: ").append(note).append('\n');
      }
    }
    out.append('\n').append(summary(report)).append('\n');
    return out.toString();
  }

  /** One line: how many checks passed, warned, failed. */
  public static String summary(DoctorReport report) {
    Map<CheckStatus, Integer> counts = new LinkedHashMap<>();
    for (CheckStatus s : CheckStatus.values()) {
      counts.put(s, 0);
    }
    for (CheckResult r : report.results()) {
      counts.merge(r.status(), 1, Integer::sum);
    }
    List<String> parts = new ArrayList<>();
    counts.forEach(
        (s, n) -> {
          if (n > 0) {
            parts.add(n + " " + s.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
          }
        });
    return String.join(", ", parts) + " (exit " + report.exitCode() + ")";
  }

  /** The same content as JSON. */
  public static String json(DoctorReport report) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("root", report.root());
    Map<String, Object> env = new LinkedHashMap<>();
    env.put("container", report.environment().inContainer());
    env.put("signs", report.environment().signs());
    root.put("environment", env);
    root.put("exitCode", report.exitCode());
    List<Object> checks = new ArrayList<>();
    for (CheckResult r : report.results()) {
      Map<String, Object> check = new LinkedHashMap<>();
      check.put("check", r.check());
      check.put("status", r.status().name());
      check.put("scope", r.scope().label());
      check.put("evidence", r.evidence());
      List<Object> findings = new ArrayList<>();
      for (Finding f : r.findings()) {
        Map<String, Object> finding = new LinkedHashMap<>();
        finding.put("id", f.id());
        finding.put("severity", f.severity().name());
        finding.put("subject", f.subject());
        finding.put("message", f.message());
        finding.put("evidence", f.evidence());
        finding.put("remediation", f.type().remediation());
        finding.put("why", f.type().why());
        finding.put("docs", f.type().docsAnchor());
        finding.put("observedAt", f.observedAt().toString());
        findings.add(finding);
      }
      check.put("findings", findings);
      check.put("notes", r.notes());
      checks.add(check);
    }
    root.put("checks", checks);
    return JsonWriter.write(root);
  }
}
