package org.springframework.transaction.annotation;

/** Test-only stand-in for Spring's enum of the same name (see {@link Transactional}). */
public enum Propagation {
  REQUIRED,
  SUPPORTS,
  MANDATORY,
  REQUIRES_NEW,
  NOT_SUPPORTED,
  NEVER,
  NESTED
}
