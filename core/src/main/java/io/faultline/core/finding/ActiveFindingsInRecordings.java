package io.faultline.core.finding;

import io.faultline.core.Jfr;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Puts a registry's active findings in every JDK Flight Recorder recording ({@code
 * io.faultline.ActiveFinding} at each chunk's start and end) once Flight Recorder is initialized,
 * so a recording started after a finding was raised (by {@code jcmd}, or one whose oldest chunks
 * were dropped) still shows it.
 *
 * <p>Whether Flight Recorder is initialized is looked at every {@link #CHECK_EVERY} on the given
 * scheduler (one volatile read) until it is. Its own listener would notice at once, but adding one
 * sets up its machinery (tens of milliseconds, some fifty classes) in every process, most of which
 * never record; a recording's first chunk still ends with the events when the look comes late.
 */
public final class ActiveFindingsInRecordings implements AutoCloseable {

  /** How often it looks whether Flight Recorder is initialized, until it is. */
  public static final Duration CHECK_EVERY = Duration.ofSeconds(1);

  private final Findings findings;
  private final ScheduledExecutorService scheduler;
  private final Consumer<? super Throwable> onFailure;
  private ScheduledFuture<?> next;
  private boolean closed;
  private boolean registered;

  private ActiveFindingsInRecordings(
      Findings findings,
      ScheduledExecutorService scheduler,
      Consumer<? super Throwable> onFailure) {
    this.findings = findings;
    this.scheduler = scheduler;
    this.onFailure = onFailure;
  }

  /**
   * Starts looking at once, on {@code scheduler}; in a runtime without Flight Recorder's module it
   * does nothing at all.
   *
   * @param findings the registry whose active findings go into recordings
   * @param scheduler where the looks run; it is not shut down by {@link #close()}
   * @param onFailure told if registering with Flight Recorder fails (it is not tried again)
   * @return what {@link #close()} undoes
   */
  public static ActiveFindingsInRecordings start(
      Findings findings,
      ScheduledExecutorService scheduler,
      Consumer<? super Throwable> onFailure) {
    ActiveFindingsInRecordings watch =
        new ActiveFindingsInRecordings(
            Objects.requireNonNull(findings, "findings"),
            Objects.requireNonNull(scheduler, "scheduler"),
            Objects.requireNonNull(onFailure, "onFailure"));
    if (Jfr.available()) {
      synchronized (watch) {
        watch.next = scheduler.schedule(watch::look, 0, TimeUnit.MILLISECONDS);
      }
    }
    return watch;
  }

  /** Whether the findings go into recordings: Flight Recorder was found initialized, not closed. */
  public synchronized boolean registered() {
    return registered;
  }

  private synchronized void look() {
    if (closed) {
      return;
    }
    next = null;
    try {
      registered = findings.recordActiveInFlightRecorder();
      if (!registered) {
        next = scheduler.schedule(this::look, CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (Throwable e) {
      onFailure.accept(e);
    }
  }

  /** Stops looking, and takes the findings out of recordings made from now on. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    registered = false;
    if (next != null) {
      next.cancel(false);
      next = null;
    }
    findings.stopRecordingActiveInFlightRecorder();
  }
}
