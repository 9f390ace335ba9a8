package io.faultline.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The most savepoints one guarded transaction may create while the test runs:
 * {@code @MaxSavepoints(0)} forbids any (a nested transaction under {@code jooq.nesting=FLATTEN}
 * creates none).
 *
 * <p>Counted per top-level transaction by jooq-guard (a {@code GuardedTransactionProvider}, or the
 * agent's guard); the test fails naming each call site over budget. On a method, or on a class (its
 * tests and those of its {@code @Nested} classes); the one nearest the test counts.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface MaxSavepoints {

  /** The budget, in savepoints per transaction. */
  int value();
}
