package io.faultline.core.finding;

import java.time.Instant;
import java.util.Objects;

/**
 * A change in the set of active findings, delivered to {@link Findings#addListener} listeners.
 *
 * @param kind what happened
 * @param finding the finding as now reported; for {@link Kind#CLEARED}, as last reported
 * @param at when it happened, by the registry's clock
 */
public record FindingEvent(Kind kind, Finding finding, Instant at) {

  /** What happened to a finding. */
  public enum Kind {
    /** It became active. */
    RAISED,
    /** It was reported again with a different severity, message or evidence. */
    UPDATED,
    /** It is no longer active. */
    CLEARED
  }

  /** Requires every part. */
  public FindingEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(finding, "finding");
    Objects.requireNonNull(at, "at");
  }
}
