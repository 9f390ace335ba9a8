package io.faultline.jooq;

import io.faultline.core.Loggers;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Failures inside the guard that must not reach the application: logged (the first ten as warnings,
 * then at debug level, so a bug cannot flood the log) and counted.
 */
final class GuardInternalErrors {

  private static final System.Logger LOG = Loggers.get(TransactionGuard.class.getName());

  private final AtomicLong count = new AtomicLong();

  /** Logs and counts {@code e}. */
  void record(RuntimeException e) {
    long n = count.incrementAndGet();
    LOG.log(
        n <= 10 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG,
        "faultline: internal error in the jOOQ transaction guard",
        e);
  }

  /** Failures recorded so far. */
  long count() {
    return count.get();
  }
}
