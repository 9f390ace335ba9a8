package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * What one check found: its status, a line of evidence (shown even when it passed, so the table
 * says what was checked), the findings, and notes such as "read in this container's namespace".
 *
 * @param check the check's name
 * @param scope whose values it read
 * @param status the outcome
 * @param evidence what was read, e.g. {@code tcp_syncookies=1, kernel 6.1.0 (fixed from 5.10)}
 * @param findings the findings, empty when it passed
 * @param notes extra remarks, possibly empty
 */
public record CheckResult(
    String check,
    ReadingScope scope,
    CheckStatus status,
    String evidence,
    List<Finding> findings,
    List<String> notes) {

  /** Copies. */
  public CheckResult {
    Objects.requireNonNull(check, "check");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(evidence, "evidence");
    findings = List.copyOf(findings);
    notes = List.copyOf(notes);
  }

  /**
   * A result whose status follows its findings: the most severe one, or {@code OK} when there are
   * none.
   */
  public static CheckResult of(
      String check,
      ReadingScope scope,
      String evidence,
      List<Finding> findings,
      List<String> notes) {
    CheckStatus status =
        findings.stream()
            .map(Finding::severity)
            .max(Comparator.naturalOrder())
            .map(CheckStatus::of)
            .orElse(CheckStatus.OK);
    return new CheckResult(check, scope, status, evidence, findings, notes);
  }

  /** A check that could not read what it needs. */
  public static CheckResult unknown(String check, ReadingScope scope, String why) {
    return new CheckResult(check, scope, CheckStatus.UNKNOWN, why, List.of(), List.of());
  }

  /** A rate check run with one sample; {@code evidence} shows the since-boot totals. */
  public static CheckResult notSampled(String check, ReadingScope scope, String evidence) {
    return new CheckResult(
        check,
        scope,
        CheckStatus.NOT_SAMPLED,
        evidence,
        List.of(),
        List.of("not sampled: run with --sample 5s to compare two readings"));
  }
}
