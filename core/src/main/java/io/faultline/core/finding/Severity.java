package io.faultline.core.finding;

/** How urgently a finding asks for attention. Ordered from least to most severe. */
public enum Severity {
  /** Worth knowing; nothing is wrong yet. */
  INFO,
  /** A condition that has caused an outage elsewhere and may cause one here. */
  WARNING,
  /** A condition that is hurting, or is about to hurt, this service now. */
  CRITICAL
}
