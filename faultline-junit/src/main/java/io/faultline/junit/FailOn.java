package io.faultline.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The finding ids a test fails on, replacing {@link FaultlineTest#failOn()} (or the defaults, with
 * {@code @ExtendWith(FaultlineExtension.class)}). The one nearest the test counts: the method's,
 * then its class's, then an enclosing class's. {@code @FailOn({})} fails on no finding and only
 * reports them.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface FailOn {

  /** {@code JOOQ_SAVEPOINT_AFTER_ROW_LOCK}: a savepoint after {@code SELECT ... FOR UPDATE}. */
  String SAVEPOINT_AFTER_ROW_LOCK = "JOOQ_SAVEPOINT_AFTER_ROW_LOCK";

  /**
   * {@code JOOQ_SUBTRANSACTION_OVERFLOW}: more savepoints in a transaction than PostgreSQL caches.
   */
  String SUBTRANSACTION_OVERFLOW = "JOOQ_SUBTRANSACTION_OVERFLOW";

  /** {@code KAFKA_RECONNECT_BACKOFF_NO_JITTER}: every client reconnects at the same moment. */
  String RECONNECT_NO_JITTER = "KAFKA_RECONNECT_BACKOFF_NO_JITTER";

  /** The finding ids (see {@code docs/findings.md}). */
  String[] value();
}
