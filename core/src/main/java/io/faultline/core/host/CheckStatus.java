package io.faultline.core.host;

import io.faultline.core.finding.Severity;

/** The outcome of one check, as the table shows it. */
public enum CheckStatus {
  /** Passed. */
  OK,
  /** Something worth knowing; not a problem. */
  INFO,
  /** A risk that has caused an outage elsewhere. */
  WARNING,
  /** Hurting now, or about to. */
  CRITICAL,
  /** A rate check run with one sample: run again with {@code --sample}. */
  NOT_SAMPLED,
  /** The values could not be read (missing file, unusual kernel). */
  UNKNOWN;

  /** The status a finding of {@code severity} gives its check. */
  public static CheckStatus of(Severity severity) {
    return switch (severity) {
      case CRITICAL -> CRITICAL;
      case WARNING -> WARNING;
      default -> INFO;
    };
  }
}
