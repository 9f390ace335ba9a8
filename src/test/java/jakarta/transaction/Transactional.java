package jakarta.transaction;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Test-only stand-in with the exact name and shape of JTA's annotation, so the agent's child-JVM
 * test needs no JTA or Spring jar: the agent matches transactional annotations by name.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Transactional {

  /** JTA's propagation. */
  TxType value() default TxType.REQUIRED;

  /** JTA's propagation values. */
  enum TxType {
    REQUIRED,
    REQUIRES_NEW,
    MANDATORY,
    SUPPORTS,
    NOT_SUPPORTED,
    NEVER
  }
}
