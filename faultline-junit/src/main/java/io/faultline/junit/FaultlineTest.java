package io.faultline.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class (or method) with {@link FaultlineExtension}: every finding raised
 * while a test runs is collected, and the test fails on those of {@link #failOn()}.
 *
 * <pre>{@code
 * @FaultlineTest
 * class OrderServiceTest { ... }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(FaultlineExtension.class)
public @interface FaultlineTest {

  /**
   * The finding ids a test fails on; a {@link FailOn} nearer the test (on the method, or on a
   * nested class) replaces them. The default: a savepoint after a row lock, more savepoints in one
   * transaction than PostgreSQL caches, and a Kafka reconnect backoff without jitter.
   */
  String[] failOn() default {
    FailOn.SAVEPOINT_AFTER_ROW_LOCK, FailOn.SUBTRANSACTION_OVERFLOW, FailOn.RECONNECT_NO_JITTER
  };
}
