package io.faultline.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The most statements one guarded transaction may run while the test runs: catches a query per row
 * (N+1) inside one transaction, and transactions that grow with the data.
 *
 * <p>Counted per top-level transaction by jooq-guard (a {@code GuardedTransactionProvider}, or the
 * agent's guard); the test fails naming each call site over budget. On a method, or on a class (its
 * tests and those of its {@code @Nested} classes); the one nearest the test counts.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface MaxStatements {

  /** The budget, in statements per transaction. */
  int value();
}
