package io.faultline.agent;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs a task on the agent's scheduler once the application's start-up has settled: no class
 * defined for {@link #QUIET_MILLIS}, or {@link #LATEST_MILLIS} after it was asked, whichever comes
 * first. The agent's export (meters, endpoint, OTLP, the host doctor's first run) waits here so
 * that on a small machine it does not take a core from a service that is still starting; a settled
 * start-up is when class loading stops, which no fixed delay would match across a hello world and a
 * Spring Boot service.
 */
final class AfterStartup implements Runnable {

  /** How long no class may be defined before the start-up counts as settled. */
  static final long QUIET_MILLIS = 500;

  /** The task runs this long after it was asked at the latest, settled or not. */
  static final long LATEST_MILLIS = 10_000;

  /** How often the class count is looked at. */
  static final long POLL_MILLIS = 100;

  private final ScheduledExecutorService scheduler;
  private final LongSupplier classesDefined;
  private final Runnable task;
  private final long quietNanos;
  private final long deadline;
  private final long pollMillis;
  private long lastCount;
  private long quietSince;

  private AfterStartup(
      ScheduledExecutorService scheduler,
      LongSupplier classesDefined,
      Runnable task,
      long quietMillis,
      long latestMillis,
      long pollMillis) {
    this.scheduler = scheduler;
    this.classesDefined = classesDefined;
    this.task = task;
    this.quietNanos = TimeUnit.MILLISECONDS.toNanos(quietMillis);
    long now = System.nanoTime();
    this.deadline = now + TimeUnit.MILLISECONDS.toNanos(latestMillis);
    this.pollMillis = pollMillis;
    this.lastCount = classesDefined.getAsLong();
    this.quietSince = now;
  }

  /**
   * Runs {@code task} on {@code scheduler} once the count {@code classesDefined} (classes the JVM
   * has defined so far) has stood still for {@link #QUIET_MILLIS}, or after {@link #LATEST_MILLIS}.
   */
  static void schedule(
      ScheduledExecutorService scheduler, LongSupplier classesDefined, Runnable task) {
    schedule(scheduler, classesDefined, task, QUIET_MILLIS, LATEST_MILLIS, POLL_MILLIS);
  }

  /** {@link #schedule(ScheduledExecutorService, LongSupplier, Runnable)} with its timings. */
  static void schedule(
      ScheduledExecutorService scheduler,
      LongSupplier classesDefined,
      Runnable task,
      long quietMillis,
      long latestMillis,
      long pollMillis) {
    AfterStartup wait =
        new AfterStartup(scheduler, classesDefined, task, quietMillis, latestMillis, pollMillis);
    scheduler.schedule(wait, pollMillis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void run() {
    long now = System.nanoTime();
    long count = classesDefined.getAsLong();
    if (count != lastCount) {
      lastCount = count;
      quietSince = now;
    }
    if (now - quietSince >= quietNanos || now - deadline >= 0) {
      task.run();
    } else {
      scheduler.schedule(this, pollMillis, TimeUnit.MILLISECONDS);
    }
  }
}
