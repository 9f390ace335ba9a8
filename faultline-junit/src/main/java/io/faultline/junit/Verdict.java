package io.faultline.junit;

import java.util.ArrayList;
import java.util.List;

/** Holds what one test observed against its {@link TestPolicy}: the failure message, if any. */
final class Verdict {

  private Verdict() {}

  /** The failure message for {@code record} under {@code policy}; empty when it passes. */
  static String failures(TestRecord record, TestPolicy policy) {
    StringBuilder out = new StringBuilder();
    List<ObservedFinding> failing = new ArrayList<>();
    for (ObservedFinding finding : record.findings()) {
      if (policy.failOn().contains(finding.id())) {
        failing.add(finding);
      }
    }
    if (!failing.isEmpty()) {
      out.append("Faultline: ")
          .append(failing.size())
          .append(failing.size() == 1 ? " finding" : " findings")
          .append(" this test fails on ")
          .append(policy.failOn())
          .append(':');
      for (ObservedFinding f : failing) {
        out.append("\n  ")
            .append(f.id())
            .append(" [")
            .append(f.severity())
            .append("] about ")
            .append(f.subject())
            .append(f.reports() > 1 ? " (reported " + f.reports() + " times)" : "")
            .append("\n    ")
            .append(f.message())
            .append("\n    What to do: ")
            .append(f.remediation())
            .append(" (see ")
            .append(f.docs())
            .append(')');
        if (f.attribution() == Attribution.ONLY_TEST_RUNNING) {
          out.append("\n    (reported on thread ")
              .append(f.thread())
              .append(", charged to this test as the only one running)");
        }
      }
    }
    List<String> over = overBudget(record, policy);
    if (!over.isEmpty()) {
      if (out.length() > 0) {
        out.append('\n');
      }
      out.append("Faultline: ")
          .append(over.size())
          .append(over.size() == 1 ? " transaction call site" : " transaction call sites")
          .append(" over budget:");
      over.forEach(line -> out.append("\n  ").append(line));
    }
    return out.toString();
  }

  private static List<String> overBudget(TestRecord record, TestPolicy policy) {
    List<String> lines = new ArrayList<>();
    for (TransactionTally site : record.transactionSites()) {
      if (policy.maxSavepoints() >= 0 && site.maxSavepoints() > policy.maxSavepoints()) {
        lines.add(
            "@MaxSavepoints("
                + policy.maxSavepoints()
                + "): a transaction begun at "
                + site.callSite()
                + " created "
                + site.maxSavepoints()
                + " savepoint(s). Flatten the nested transactions (jooq.nesting=FLATTEN) or"
                + " restructure so the inner work runs in the outer transaction");
      }
      if (policy.maxNesting() >= 0 && site.maxDepth() > policy.maxNesting()) {
        lines.add(
            "@MaxNesting("
                + policy.maxNesting()
                + "): a transaction begun at "
                + site.callSite()
                + " nested "
                + site.maxDepth()
                + " levels deep (its top level counts 1). Begin the inner work outside, or pass"
                + " the outer transaction's configuration down instead of beginning another");
      }
      if (policy.maxStatements() >= 0 && site.maxStatements() > policy.maxStatements()) {
        lines.add(
            "@MaxStatements("
                + policy.maxStatements()
                + "): a transaction begun at "
                + site.callSite()
                + " ran "
                + site.maxStatements()
                + " statements. Fetch in one query instead of one per row, or split the"
                + " transaction");
      }
    }
    return lines;
  }

  /**
   * One line for the report: the findings of {@code record}, and its transactions' worst counts.
   */
  static String summary(TestRecord record) {
    StringBuilder line = new StringBuilder();
    for (ObservedFinding f : record.findings()) {
      if (line.length() > 0) {
        line.append("; ");
      }
      line.append(f.id()).append(" about ").append(f.subject());
      if (f.reports() > 1) {
        line.append(" (x").append(f.reports()).append(')');
      }
    }
    if (record.transactions() > 0) {
      int savepoints = 0;
      int depth = 0;
      long statements = 0;
      for (TransactionTally site : record.transactionSites()) {
        savepoints = Math.max(savepoints, site.maxSavepoints());
        depth = Math.max(depth, site.maxDepth());
        statements = Math.max(statements, site.maxStatements());
      }
      if (line.length() > 0) {
        line.append("; ");
      }
      line.append(record.transactions())
          .append(" transaction(s), at most ")
          .append(savepoints)
          .append(" savepoint(s), depth ")
          .append(depth)
          .append(", ")
          .append(statements)
          .append(" statement(s) in one");
    }
    return line.toString();
  }
}
