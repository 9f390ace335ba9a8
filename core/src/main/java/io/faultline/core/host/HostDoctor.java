package io.faultline.core.host;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs every host check over one {@link ProcFs} and returns a {@link DoctorReport}. With a sampling
 * interval it reads the counters twice, that far apart, so the rate checks can judge.
 */
public final class HostDoctor {

  /** Waits between samples; tests pass one that does not sleep. */
  @FunctionalInterface
  public interface Sleeper {
    /** Waits for {@code duration}. */
    void sleep(Duration duration) throws InterruptedException;
  }

  private final ProcFs proc;
  private final DoctorOptions options;
  private final Clock clock;
  private final Sleeper sleeper;
  private final List<HostCheck> checks;

  /** A doctor with every standard check, the system clock and a real sleep. */
  public HostDoctor(ProcFs proc, DoctorOptions options) {
    this(proc, options, Clock.systemUTC(), d -> Thread.sleep(d.toMillis()), standardChecks());
  }

  /** A doctor with the given parts. */
  public HostDoctor(
      ProcFs proc, DoctorOptions options, Clock clock, Sleeper sleeper, List<HostCheck> checks) {
    this.proc = Objects.requireNonNull(proc, "proc");
    this.options = Objects.requireNonNull(options, "options");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.checks = List.copyOf(checks);
  }

  /** The checks in the order the table shows them. */
  public static List<HostCheck> standardChecks() {
    return List.of(
        new SynCookieKernelCheck(),
        new WindowScalingCheck(),
        new ListenBacklogCheck(),
        new ListenCountersCheck(),
        new EphemeralPortsCheck(),
        new SocketBufferCheck(),
        new ReceiveSteeringCheck(),
        new NetRxSoftirqCheck(),
        new CongestionControlCheck());
  }

  /** Samples (once, or twice when sampling) and runs every check. Never throws. */
  public DoctorReport examine() {
    HostSample first = HostSample.take(proc, clock.instant());
    Optional<HostSample> second = Optional.empty();
    if (options.sampling()) {
      try {
        sleeper.sleep(options.sample());
        second = Optional.of(HostSample.take(proc, clock.instant()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return examine(first, second);
  }

  /** Runs every check over samples already taken. */
  public DoctorReport examine(HostSample first, Optional<HostSample> second) {
    HostEnvironment environment = HostEnvironment.detect(proc);
    DoctorContext context = new DoctorContext(proc, options, first, second, environment);
    List<CheckResult> results = new ArrayList<>();
    for (HostCheck check : checks) {
      CheckResult result;
      try {
        result = check.run(context);
      } catch (RuntimeException e) {
        // A check's bug must not hide the other checks' answers.
        result = CheckResult.unknown(check.name(), check.scope(), "check failed: " + e);
      }
      results.add(withScopeNote(result, environment));
    }
    return new DoctorReport(proc.root().toString(), environment, results);
  }

  private static CheckResult withScopeNote(CheckResult result, HostEnvironment environment) {
    if (!environment.inContainer() || result.scope() == ReadingScope.KERNEL) {
      return result;
    }
    List<String> notes = new ArrayList<>(result.notes());
    notes.add(
        result.scope() == ReadingScope.NETWORK_NAMESPACE
            ? "in a container: these are the container's own network-namespace values"
            : "in a container: host-wide values (the container may not see the host's NICs)");
    return new CheckResult(
        result.check(),
        result.scope(),
        result.status(),
        result.evidence(),
        result.findings(),
        notes);
  }
}
