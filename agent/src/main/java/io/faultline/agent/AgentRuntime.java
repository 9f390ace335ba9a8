package io.faultline.agent;

import io.faultline.agent.export.StatusPage;
import io.faultline.agent.instrumentation.InstalledModule;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.core.host.DoctorReport;
import io.faultline.core.metrics.LateRegistry;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The running agent, for the code its advice calls: the configuration, the findings registry, the
 * meter registry (relocated Micrometer; register with core's {@code MeterDoc}), the status page,
 * and a scheduler thread. There is one per JVM once the agent started (most of the start runs on
 * the agent's start thread after {@code premain} returned); {@link #current()} is empty when the
 * agent is not attached (library use).
 */
public final class AgentRuntime {

  private static volatile AgentRuntime current;

  private final FaultlineConfig config;
  private final Findings findings;
  private final AgentRegistry meters;
  private final StatusPage statusPage;
  private final ScheduledExecutorService scheduler;
  private final AtomicReference<List<InstalledModule>> modules = new AtomicReference<>(List.of());
  private final AtomicReference<DoctorReport> doctorReport = new AtomicReference<>();
  private final AtomicReference<String> socketFdsUnavailable = new AtomicReference<>();
  private final AtomicReference<PhaseMeters> phaseMeters = new AtomicReference<>();
  private volatile AgentStartup startup = AgentStartup.NONE;
  private volatile int endpointPort = -1;
  private volatile boolean exportStarted;

  AgentRuntime(
      FaultlineConfig config,
      Findings findings,
      AgentRegistry meters,
      StatusPage statusPage,
      ScheduledExecutorService scheduler) {
    this.config = Objects.requireNonNull(config, "config");
    this.findings = Objects.requireNonNull(findings, "findings");
    this.meters = Objects.requireNonNull(meters, "meters");
    this.statusPage = Objects.requireNonNull(statusPage, "statusPage");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /**
   * The running agent, if one started in this JVM; empty when no agent is attached (library use).
   * Never waits: the runtime is in place before any advice is woven, so advice always finds it.
   */
  public static Optional<AgentRuntime> current() {
    return Optional.ofNullable(current);
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

  /**
   * The agent's meter registry; its meters are scraped at /metrics and mirrored to the app. The
   * first call creates it: code that runs while the application starts registers through {@link
   * #lateMeters()} instead.
   */
  public MeterRegistry meters() {
    return meters.get();
  }

  /**
   * The agent's meter registry as code running during the application's start-up should use it:
   * what it registers waits, without loading Micrometer, until the export creates the registry.
   */
  public LateRegistry lateMeters() {
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

  /**
   * The Kafka request phase and gap timers, for the endpoint to write as histograms; empty until
   * the first Kafka client appears.
   */
  public Optional<PhaseMeters> phaseMeters() {
    return Optional.ofNullable(phaseMeters.get());
  }

  /** Called once, by the agent's Kafka clients when the first appears. */
  public void setPhaseMeters(PhaseMeters meters) {
    phaseMeters.set(meters);
  }

  /** How the start went for the application (zeros until the instrumentation is installed). */
  public AgentStartup startup() {
    return startup;
  }

  /**
   * Whether the instrumentation is installed and the classes that loaded during the start are
   * woven: from then on every call into a targeted library is observed. For tests that must not
   * touch a library earlier; the agent itself never waits for it.
   */
  public boolean isInstalled() {
    return startup != AgentStartup.NONE;
  }

  void setStartup(AgentStartup startup) {
    this.startup = startup;
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
   * successfully or not; it runs on the agent's thread once the application's start-up has settled
   * (no class loaded for half a second, or 10 s after the installation at the latest).
   */
  public boolean exportStarted() {
    return exportStarted;
  }

  void markExportStarted() {
    exportStarted = true;
  }
}
