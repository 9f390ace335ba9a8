package io.faultline.core.finding;

import io.faultline.core.Jfr;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Puts a registry's active findings in every JDK Flight Recorder recording ({@code
 * io.faultline.ActiveFinding} at each chunk's start and end) once Flight Recorder is initialized,
 * so a recording started after a finding was raised (by {@code jcmd}, or one whose oldest chunks
 * were dropped) still shows it.
 *
 * <p>Whether Flight Recorder is initialized is looked at on the given scheduler (one volatile read)
 * until it is: after {@link #CHECK_EVERY}, then at intervals that double up to {@link
 * #CHECK_AT_MOST_EVERY}, since a wake of a scheduler thread that runs so rarely costs more than the
 * look itself and a recording started later, by {@code jcmd}, is rarely seconds old when it is
 * looked at. Its own listener would notice at once, but adding one sets up its machinery (tens of
 * milliseconds, some fifty classes) in every process, most of which never record; a recording's
 * first chunk still ends with the events when the look comes late.
 */
public final class ActiveFindingsInRecordings implements AutoCloseable {

  /** When it looks again after its first look found Flight Recorder not initialized. */
  public static final Duration CHECK_EVERY = Duration.ofSeconds(1);

  /** The longest interval between two looks. */
  public static final Duration CHECK_AT_MOST_EVERY = Duration.ofSeconds(8);

  private final Findings findings;
  // Registers the findings if Flight Recorder is initialized; says whether it did.
  private final BooleanSupplier register;
  private final ScheduledExecutorService scheduler;
  private final Consumer<? super Throwable> onFailure;
  private ScheduledFuture<?> next;
  private long nextDelayMillis = CHECK_EVERY.toMillis();
  private boolean closed;
  private boolean registered;

  private ActiveFindingsInRecordings(
      Findings findings,
      BooleanSupplier register,
      ScheduledExecutorService scheduler,
      Consumer<? super Throwable> onFailure) {
    this.findings = findings;
    this.register = register;
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
    Objects.requireNonNull(findings, "findings");
    return start(findings, findings::recordActiveInFlightRecorder, scheduler, onFailure);
  }

  /** {@link #start(Findings, ScheduledExecutorService, Consumer)} with its register step. */
  static ActiveFindingsInRecordings start(
      Findings findings,
      BooleanSupplier register,
      ScheduledExecutorService scheduler,
      Consumer<? super Throwable> onFailure) {
    ActiveFindingsInRecordings watch =
        new ActiveFindingsInRecordings(
            findings,
            register,
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
      registered = register.getAsBoolean();
      if (!registered) {
        next = scheduler.schedule(this::look, nextDelayMillis, TimeUnit.MILLISECONDS);
        nextDelayMillis = Math.min(nextDelayMillis * 2, CHECK_AT_MOST_EVERY.toMillis());
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
