package io.faultline.it.servers;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test that needs containers (its own network namespace, kernel settings, a broker on
 * another address): skipped, with the reason printed, when the suite runs its servers embedded.
 * Tagged {@code docker} so a build can exclude them.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("docker")
@ExtendWith(RequiresDockerCondition.class)
public @interface RequiresDocker {

  /** Why the test needs containers, shown when it is skipped. */
  String value();
}
