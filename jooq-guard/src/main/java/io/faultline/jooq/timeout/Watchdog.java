package io.faultline.jooq.timeout;

import io.faultline.core.Loggers;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one daemon thread, shared by every guard in the JVM, that fires transaction deadlines. A
 * deadline's action must be quick (it cancels a statement); it never runs on an application thread.
 */
public final class Watchdog {

  private static final System.Logger LOG = Loggers.get(Watchdog.class.getName());

  private static final ScheduledThreadPoolExecutor EXECUTOR = create();

  private Watchdog() {}

  private static ScheduledThreadPoolExecutor create() {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "faultline-jooq-watchdog");
              t.setDaemon(true);
              return t;
            });
    // Most deadlines are cancelled because the transaction ended in time: drop them at once.
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  /**
   * Runs {@code action} after {@code delay} on the watchdog thread; cancel the result to stop it.
   */
  public static ScheduledFuture<?> schedule(Duration delay, Runnable action) {
    return EXECUTOR.schedule(
        () -> {
          try {
            action.run();
          } catch (RuntimeException e) {
            LOG.log(
                System.Logger.Level.WARNING, "faultline: transaction deadline action failed", e);
          }
        },
        delay.toNanos(),
        TimeUnit.NANOSECONDS);
  }

  /** Deadlines scheduled and not yet fired or cancelled. */
  public static int pending() {
    return EXECUTOR.getQueue().size();
  }
}
