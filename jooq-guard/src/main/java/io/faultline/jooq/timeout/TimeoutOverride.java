package io.faultline.jooq.timeout;

import java.time.Duration;
import java.util.Objects;
import org.jooq.Configuration;

/**
 * Timeouts for one transaction that differ from the guard's: {@code
 * DSL.using(TimeoutOverride.statementTimeout(ofSeconds(30)).applyTo(dsl.configuration()))
 * .transaction(...)}. The statement timeout is applied with {@code SET LOCAL}, so it ends with the
 * transaction and the pooled connection keeps the guard's setting; it costs one round trip for that
 * transaction only.
 */
public final class TimeoutOverride {

  /** The key under which an override travels in {@link Configuration#data()}. */
  public static final Object DATA_KEY = TimeoutOverride.class.getName();

  /**
   * Whether any override was ever created: until then no configuration can carry one, and a
   * transaction's begin skips the lookup (a busy pool's begins pay for every map they read).
   */
  private static volatile boolean anyCreated;

  private final Duration statementTimeout;
  private final Duration transactionTimeout;

  private TimeoutOverride(Duration statementTimeout, Duration transactionTimeout) {
    this.statementTimeout = statementTimeout;
    this.transactionTimeout = transactionTimeout;
    if (!anyCreated) {
      anyCreated = true;
    }
  }

  /** An override of the statement timeout ({@link Duration#ZERO}: none for this transaction). */
  public static TimeoutOverride statementTimeout(Duration timeout) {
    return new TimeoutOverride(Objects.requireNonNull(timeout, "timeout"), null);
  }

  /** An override of the transaction deadline ({@link Duration#ZERO}: none). */
  public static TimeoutOverride transactionTimeout(Duration timeout) {
    return new TimeoutOverride(null, Objects.requireNonNull(timeout, "timeout"));
  }

  /** This override with the statement timeout set too. */
  public TimeoutOverride andStatementTimeout(Duration timeout) {
    return new TimeoutOverride(Objects.requireNonNull(timeout, "timeout"), transactionTimeout);
  }

  /** This override with the transaction deadline set too. */
  public TimeoutOverride andTransactionTimeout(Duration timeout) {
    return new TimeoutOverride(statementTimeout, Objects.requireNonNull(timeout, "timeout"));
  }

  /** The statement timeout of the override, or null when it does not override it. */
  public Duration statementTimeout() {
    return statementTimeout;
  }

  /** The transaction deadline of the override, or null when it does not override it. */
  public Duration transactionTimeout() {
    return transactionTimeout;
  }

  /** A configuration derived from {@code configuration} whose transactions use this override. */
  public Configuration applyTo(Configuration configuration) {
    Configuration derived = configuration.derive();
    derived.data(DATA_KEY, this);
    return derived;
  }

  /** The override carried by {@code configuration}, or null. */
  public static TimeoutOverride of(Configuration configuration) {
    if (!anyCreated) {
      return null;
    }
    Object value = configuration.data(DATA_KEY);
    return value instanceof TimeoutOverride o ? o : null;
  }
}
