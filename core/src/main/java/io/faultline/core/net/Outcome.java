package io.faultline.core.net;

import java.util.Objects;
import java.util.Optional;

/**
 * Either a value or the reason there is none. Readers of kernel facts return this instead of
 * throwing, so a caller has to look at the reason before it can have the value and nothing ever
 * reaches the host application as an exception.
 *
 * @param <T> the value's type
 */
public final class Outcome<T> {

  private final T value;
  private final String reason;

  private Outcome(T value, String reason) {
    this.value = value;
    this.reason = reason;
  }

  /** A value. */
  public static <T> Outcome<T> of(T value) {
    return new Outcome<>(Objects.requireNonNull(value, "value"), null);
  }

  /** No value, and why (e.g. {@code "TCP_INFO needs Linux; this is Mac OS X"}). */
  public static <T> Outcome<T> unavailable(String reason) {
    return new Outcome<>(null, Objects.requireNonNull(reason, "reason"));
  }

  /** Whether there is a value. */
  public boolean isAvailable() {
    return value != null;
  }

  /** The value, if there is one. */
  public Optional<T> value() {
    return Optional.ofNullable(value);
  }

  /** Why there is no value; empty when there is one. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason);
  }

  @Override
  public String toString() {
    return value != null ? "Outcome[" + value + "]" : "Outcome[unavailable: " + reason + "]";
  }
}
