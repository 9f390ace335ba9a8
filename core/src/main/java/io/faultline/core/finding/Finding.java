package io.faultline.core.finding;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One thing Faultline found: a {@link FindingType} about a particular subject (a broker node, a
 * call site, a sysctl), with the evidence, the named numbers that show it.
 *
 * @param type what kind of finding this is
 * @param severity how severe this occurrence is (usually {@code type.defaultSeverity()})
 * @param subject what it is about, e.g. {@code node 2 (10.0.0.7:9092)} or {@code
 *     net.ipv4.tcp_syncookies}
 * @param message one sentence with the numbers, for a log line or a table cell
 * @param evidence named values (numbers, or short strings such as a kernel version), in insertion
 *     order
 * @param observedAt when it was observed
 */
public record Finding(
    FindingType type,
    Severity severity,
    String subject,
    String message,
    Map<String, Object> evidence,
    Instant observedAt) {

  /** Copies the evidence so a finding never changes after it is made. */
  public Finding {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(observedAt, "observedAt");
    evidence = Collections.unmodifiableMap(new LinkedHashMap<>(evidence));
  }

  /** Starts a finding of {@code type} about {@code subject} at the type's default severity. */
  public static Builder of(FindingType type, String subject) {
    return new Builder(type, subject);
  }

  /** The stable id of this finding's type. */
  public String id() {
    return type.id();
  }

  /** Builds a {@link Finding}; evidence keeps the order it was added in. */
  public static final class Builder {
    private final FindingType type;
    private final String subject;
    private final Map<String, Object> evidence = new LinkedHashMap<>();
    private Severity severity;
    private String message;
    private Instant observedAt;

    private Builder(FindingType type, String subject) {
      this.type = Objects.requireNonNull(type, "type");
      this.subject = Objects.requireNonNull(subject, "subject");
      this.severity = type.defaultSeverity();
      this.message = type.title();
    }

    /** Overrides the type's default severity for this occurrence. */
    public Builder severity(Severity severity) {
      this.severity = Objects.requireNonNull(severity, "severity");
      return this;
    }

    /** The one-sentence message with the numbers; defaults to the type's title. */
    public Builder message(String message) {
      this.message = Objects.requireNonNull(message, "message");
      return this;
    }

    /** Adds one named piece of evidence (a number, or a short string). */
    public Builder evidence(String name, Object value) {
      evidence.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, name));
      return this;
    }

    /** When it was observed; defaults to now. */
    public Builder observedAt(Instant observedAt) {
      this.observedAt = Objects.requireNonNull(observedAt, "observedAt");
      return this;
    }

    /** The finding. */
    public Finding build() {
      return new Finding(
          type,
          severity,
          subject,
          message,
          evidence,
          observedAt == null ? Instant.now() : observedAt);
    }
  }
}
