package io.faultline.agent;

import io.faultline.agent.export.StatusPage;
import io.faultline.agent.instrumentation.InstalledModule;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.core.host.DoctorReport;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The running agent, for the code its advice calls: the configuration, the findings registry, the
 * meter registry (relocated Micrometer; register with core's {@code MeterDoc}), the status page,
 * and a scheduler thread. There is one per JVM once the agent started (most of the start runs on
 * the agent's start thread after {@code premain} returned; {@link #current()} waits for it); {@link
 * #current()} is empty when the agent is not attached (library use).
 */
public final class AgentRuntime {

  /** The longest {@link #current()} waits for a start in progress. */
  private static final long START_WAIT_SECONDS = 30;

  private static volatile AgentRuntime current;
  private static volatile CountDownLatch starting;
  private static volatile Thread starter;

  private final FaultlineConfig config;
  private final Findings findings;
  private final MeterRegistry meters;
  private final StatusPage statusPage;
  private final ScheduledExecutorService scheduler;
  private final AtomicReference<List<InstalledModule>> modules = new AtomicReference<>(List.of());
  private final AtomicReference<DoctorReport> doctorReport = new AtomicReference<>();
  private final AtomicReference<String> socketFdsUnavailable = new AtomicReference<>();
  private volatile int endpointPort = -1;
  private volatile boolean exportStarted;

  AgentRuntime(
      FaultlineConfig config,
      Findings findings,
      MeterRegistry meters,
      StatusPage statusPage,
      ScheduledExecutorService scheduler) {
    this.config = Objects.requireNonNull(config, "config");
    this.findings = Objects.requireNonNull(findings, "findings");
    this.meters = Objects.requireNonNull(meters, "meters");
    this.statusPage = Objects.requireNonNull(statusPage, "statusPage");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /**
   * The running agent, if one started in this JVM; while the agent's start thread is still setting
   * it up, waits for it (at most 30 s; that thread itself never waits).
   */
  public static Optional<AgentRuntime> current() {
    AgentRuntime runtime = current;
    if (runtime == null) {
      CountDownLatch latch = starting;
      if (latch != null && Thread.currentThread() != starter) {
        try {
          latch.await(START_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        runtime = current;
      }
    }
    return Optional.ofNullable(runtime);
  }

  /** The agent starts on {@code thread}: {@link #current()} waits until {@link #startEnded()}. */
  static void startingOn(Thread thread) {
    starter = thread;
    starting = new CountDownLatch(1);
  }

  /** The start ended, with or without a runtime: nobody waits any more. */
  static void startEnded() {
    CountDownLatch latch = starting;
    if (latch != null) {
      latch.countDown();
    }
  }

  static void setCurrent(AgentRuntime runtime) {
    current = runtime;
  }

  /** The configuration the agent started with. */
  public FaultlineConfig config() {
    return config;
  }

  /** Where findings are raised and cleared. */
  public Findings findings() {
    return findings;
  }

  /** The agent's meter registry; its meters are scraped at /metrics and mirrored to the app. */
  public MeterRegistry meters() {
    return meters;
  }

  /** The status page; add sections with {@link StatusPage#add}. */
  public StatusPage statusPage() {
    return statusPage;
  }

  /** A daemon scheduler for periodic work (keep tasks short; it is one thread). */
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /** The instrumentation modules and their state. */
  public List<InstalledModule> modules() {
    return modules.get();
  }

  void setModules(List<InstalledModule> installed) {
    modules.set(List.copyOf(installed));
  }

  /** The host doctor's latest report, if it ran. */
  public Optional<DoctorReport> doctorReport() {
    return Optional.ofNullable(doctorReport.get());
  }

  void setDoctorReport(DoctorReport report) {
    doctorReport.set(report);
  }

  /**
   * Why {@code SocketFds.ofChannel} cannot work in this JVM ({@code java.base/sun.nio.ch} could not
   * be opened); empty when it can.
   */
  public Optional<String> socketFdsUnavailable() {
    return Optional.ofNullable(socketFdsUnavailable.get());
  }

  void setSocketFdsUnavailable(String reason) {
    socketFdsUnavailable.set(reason);
  }

  /** The port the endpoint listens on; empty when it is off or could not bind. */
  public Optional<Integer> endpointPort() {
    int port = endpointPort;
    return port < 0 ? Optional.empty() : Optional.of(port);
  }

  void setEndpointPort(int port) {
    endpointPort = port;
  }

  /**
   * Whether the export start-up (meters, endpoint, first host-doctor run scheduled) has finished,
   * successfully or not; it runs on the agent's thread right after {@code premain}.
   */
  public boolean exportStarted() {
    return exportStarted;
  }

  void markExportStarted() {
    exportStarted = true;
  }
}
