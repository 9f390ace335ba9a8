package io.faultline.agent;

import io.faultline.core.Jfr;
import io.faultline.core.finding.Findings;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Puts the active findings in every JDK Flight Recorder recording ({@code
 * io.faultline.ActiveFinding} at each chunk's start and end) once Flight Recorder is initialized,
 * so a recording started after the host doctor's first run still has its findings.
 *
 * <p>Whether it is initialized is looked at every {@link #CHECK_EVERY} on the agent's scheduler
 * (one volatile read) until it is. Flight Recorder's own listener would notice at once, but adding
 * one sets up its machinery (tens of milliseconds, some fifty classes) in every process, most of
 * which never record; a recording's first chunk still ends with the events when the check comes
 * late.
 */
final class ActiveFindingsInRecordings implements Runnable {

  static final Duration CHECK_EVERY = Duration.ofSeconds(1);

  private final AgentRuntime runtime;
  private final PrintStream err;

  private ActiveFindingsInRecordings(AgentRuntime runtime, PrintStream err) {
    this.runtime = runtime;
    this.err = err;
  }

  /** Starts looking, now; nothing at all in a runtime without Flight Recorder's module. */
  static void watch(AgentRuntime runtime, PrintStream err) {
    if (Jfr.available()) {
      runtime.scheduler().execute(new ActiveFindingsInRecordings(runtime, err));
    }
  }

  @Override
  public void run() {
    Findings findings = runtime.findings();
    try {
      if (!findings.recordActiveInFlightRecorder()) {
        runtime.scheduler().schedule(this, CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (Throwable e) {
      err.println("faultline: adding the active findings to JFR recordings failed: " + e);
    }
  }
}
