package org.springframework.transaction.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Test-only stand-in with the exact name of Spring's annotation and its {@code propagation}
 * attribute, so the agent's child-JVM test needs no Spring: the agent reads it by name.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Transactional {

  /** Spring's propagation. */
  Propagation propagation() default Propagation.REQUIRED;
}
