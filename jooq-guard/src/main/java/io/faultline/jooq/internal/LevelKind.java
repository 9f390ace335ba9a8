package io.faultline.jooq.internal;

/** What one transaction level turned out to be. */
public enum LevelKind {
  /** The top-level transaction. */
  TOP,
  /** A nested level the delegate made a savepoint. */
  SAVEPOINT,
  /** A nested level the delegate joined without a savepoint (e.g. {@code nested=false}). */
  JOIN,
  /** A nested level the guard joined to the outer transaction without asking the delegate. */
  FLATTENED,
  /** A nested level the guard refused; jOOQ still calls rollback for it. */
  REFUSED
}
