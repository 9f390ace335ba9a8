package io.faultline.it.servers;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@link KafkaCluster} parameter: how many nodes (1–3), and whether the test gets a cluster of
 * its own (closed after the test class) instead of the one shared by every test that asks for that
 * size. Ask for a dedicated cluster when the test leaves brokers in a state others would not
 * expect.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface Brokers {

  /** Number of nodes, 1 to 3. */
  int value() default 1;

  /** True for a cluster of this test class's own. */
  boolean dedicated() default false;
}
