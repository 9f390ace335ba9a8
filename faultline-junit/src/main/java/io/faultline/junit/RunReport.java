package io.faultline.junit;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The report of one top-level test class (its {@code @Nested} classes included): which tests raised
 * which findings. Published as a JUnit report entry when the class ends, so it appears in the
 * Surefire XML, the IDE and CI.
 */
final class RunReport {

  private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> tests = new ConcurrentLinkedQueue<>();

  /**
   * Adds {@code record}'s line when it observed a finding; {@code test} false for a class's own
   * callbacks, listed but not counted as a test.
   */
  void add(TestRecord record, boolean test) {
    if (test) {
      tests.add(record.name());
    }
    if (!record.findings().isEmpty()) {
      lines.add(record.name() + ": " + Verdict.summary(record));
    }
  }

  /** The report's text. */
  String render(List<String> sources, List<String> unattributed, int total) {
    StringBuilder out = new StringBuilder("Faultline findings per test (observing ");
    out.append(String.join(" and ", sources)).append("): ");
    if (lines.isEmpty()) {
      out.append("none in ").append(tests.size()).append(" test(s)");
    } else {
      out.append(lines.size()).append(" of ").append(tests.size()).append(" test(s)");
      lines.forEach(line -> out.append("\n  ").append(line));
    }
    if (total > 0) {
      out.append(
              "\n  charged to no test (reported on a thread of no test while none or several ran): ")
          .append(total);
      unattributed.forEach(line -> out.append("\n    ").append(line));
      if (total > unattributed.size()) {
        out.append("\n    ... ").append(total - unattributed.size()).append(" more");
      }
    }
    return out.toString();
  }
}
