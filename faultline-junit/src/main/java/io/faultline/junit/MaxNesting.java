package io.faultline.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The deepest one guarded transaction may get while the test runs, its top level counting 1:
 * {@code @MaxNesting(1)} forbids any nested transaction, flattened or not; {@code @MaxNesting(2)}
 * allows one level inside the top one.
 *
 * <p>Counted per top-level transaction by jooq-guard (a {@code GuardedTransactionProvider}, or the
 * agent's guard); the test fails naming each call site over budget. On a method, or on a class (its
 * tests and those of its {@code @Nested} classes); the one nearest the test counts.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface MaxNesting {

  /** The budget, in levels per transaction. */
  int value();
}
