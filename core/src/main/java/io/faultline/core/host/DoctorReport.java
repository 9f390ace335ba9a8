package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The doctor's answer: one {@link CheckResult} per check.
 *
 * @param root the directory read ({@code /} on a live host)
 * @param environment container or not
 * @param results one per check, in table order
 */
public record DoctorReport(String root, HostEnvironment environment, List<CheckResult> results) {

  /** Exit code when everything passed (INFO findings included). */
  public static final int EXIT_CLEAR = 0;

  /** Exit code when the worst finding is a warning. */
  public static final int EXIT_WARNING = 1;

  /** Exit code when any finding is critical. */
  public static final int EXIT_CRITICAL = 2;

  /** Copies. */
  public DoctorReport {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(environment, "environment");
    results = List.copyOf(results);
  }

  /** Every finding of every check. */
  public List<Finding> findings() {
    List<Finding> all = new ArrayList<>();
    for (CheckResult r : results) {
      all.addAll(r.findings());
    }
    return all;
  }

  /** 0 all clear, 1 warnings, 2 critical. */
  public int exitCode() {
    int code = EXIT_CLEAR;
    for (CheckResult r : results) {
      if (r.status() == CheckStatus.CRITICAL) {
        return EXIT_CRITICAL;
      }
      if (r.status() == CheckStatus.WARNING) {
        code = EXIT_WARNING;
      }
    }
    return code;
  }

  /** The result of the check named {@code check}. */
  public CheckResult result(String check) {
    return results.stream()
        .filter(r -> r.check().equals(check))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no check named " + check));
  }
}
