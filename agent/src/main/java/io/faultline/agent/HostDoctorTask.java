package io.faultline.agent;

import io.faultline.core.host.DoctorOptions;
import io.faultline.core.host.HostDoctor;
import io.faultline.core.host.ProcFs;
import io.faultline.core.host.ServerSideFindings;
import io.faultline.core.net.SocketFds;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Runs the host doctor in the agent: once the start-up has settled, then every {@code
 * doctor.interval}, with the {@code doctor.*} settings. Its server-side findings are warnings only
 * in a process that accepts connections ({@link ServerSideFindings}); a process that did not listen
 * yet at the first run (a broker opens its listeners a few seconds after its start) is looked at
 * again soon after. That second look only asks whether it listens now and, if so, tells the stored
 * report's findings again: the host has not changed in half a minute, and examining it whole again
 * would land in a busy service's steady state for nothing.
 */
final class HostDoctorTask implements Runnable {

  /** When a process that did not listen at the first run is looked at again. */
  static final Duration LISTENERS_AGAIN_AFTER = Duration.ofSeconds(30);

  private final AgentRuntime runtime;
  private final PrintStream err;
  private boolean lookedAgain;

  private HostDoctorTask(AgentRuntime runtime, PrintStream err) {
    this.runtime = runtime;
    this.err = err;
  }

  /** Schedules the runs on the agent's scheduler; {@code interval} zero: one run only. */
  static void schedule(AgentRuntime runtime, Duration interval, PrintStream err) {
    HostDoctorTask task = new HostDoctorTask(runtime, err);
    if (interval.isZero() || interval.isNegative()) {
      runtime.scheduler().execute(task);
    } else {
      runtime
          .scheduler()
          .scheduleWithFixedDelay(task, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void run() {
    try {
      var report = new HostDoctor(ProcFs.system(), DoctorOptions.from(runtime.config())).examine();
      runtime.setDoctorReport(report);
      boolean serving =
          ProcessListeners.acceptsConnections(SocketFds.forThisProcess(), runtime.endpointPort());
      runtime
          .findings()
          .replaceAll("host.doctor", ServerSideFindings.forProcess(report.findings(), serving));
      // Runs on the scheduler's one thread only: no other run reads or writes the flag.
      if (!serving && !lookedAgain) {
        lookedAgain = true;
        runtime
            .scheduler()
            .schedule(this::lookAgain, LISTENERS_AGAIN_AFTER.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (Throwable e) {
      if (!JvmShutdown.inProgress()) {
        err.println("faultline: running the host doctor failed, going on without it: " + e);
      }
    }
  }

  /** Tells the latest report's findings as a server's if this process listens now. */
  private void lookAgain() {
    try {
      if (ProcessListeners.acceptsConnections(SocketFds.forThisProcess(), runtime.endpointPort())) {
        runtime
            .doctorReport()
            .ifPresent(report -> runtime.findings().replaceAll("host.doctor", report.findings()));
      }
    } catch (Throwable e) {
      if (!JvmShutdown.inProgress()) {
        err.println("faultline: looking again at this process's listeners failed: " + e);
      }
    }
  }
}
