package io.faultline.agent;

import io.faultline.agent.export.ApplicationMicrometerBridge;
import io.faultline.agent.export.BuiltInSections;
import io.faultline.agent.export.DeferredMetricsPage;
import io.faultline.agent.export.EndpointSetup;
import io.faultline.agent.export.FindingsJson;
import io.faultline.agent.export.MicrometerWatcher;
import io.faultline.agent.export.OtlpExporter;
import io.faultline.agent.export.ScrapeEndpoint;
import io.faultline.agent.export.StatusPage;
import io.faultline.agent.instrumentation.AgentClassFiles;
import io.faultline.agent.instrumentation.AgentErrors;
import io.faultline.agent.instrumentation.ClassFileUrlHandlers;
import io.faultline.agent.instrumentation.DeferredTransformer;
import io.faultline.agent.instrumentation.DeferringInstrumentation;
import io.faultline.agent.instrumentation.InstalledModule;
import io.faultline.agent.instrumentation.InstrumentationInstaller;
import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.net.AgentTcpInfo;
import io.faultline.agent.net.ChurnTracking;
import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.ActiveFindingsInRecordings;
import io.faultline.core.finding.Findings;
import io.faultline.core.finding.FindingsMetrics;
import io.faultline.core.host.AcceptedConnections;
import io.faultline.core.host.HostConfigKeys;
import io.faultline.core.host.HostTcpMetrics;
import io.faultline.core.host.ListenerQueues;
import io.faultline.core.net.SocketFds;
import io.faultline.kafka.broker.RequestClientIds;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Starts the agent. On the thread of {@code premain}, only what must precede {@code main}: the
 * configuration's sources read, {@code java.base/sun.nio.ch} opened, the modules discovered and the
 * {@link DeferredTransformer} registered. Then, on the agent's start thread while {@code main}
 * runs: the agent's loggers, the configuration parsed (problems printed to stderr), the
 * instrumentation modules that are on (a class one of them targets that {@code main} loads
 * meanwhile is woven afterwards by retransformation: no application thread waits for the agent) and
 * connection churn; and on the agent's scheduler, once the application's start-up has settled
 * ({@link AfterStartup}): the meter registry with the meters that waited for it ({@link
 * AgentRegistry}), the Micrometer bridge, the endpoint and the host doctor. Each step that fails is
 * reported and skipped; the others still run.
 */
final class AgentStarter {

  private static final Object LOCK = new Object();

  /** How long the start waits for loads still in the transformer when the modules are in. */
  private static final long END_STARTUP_WAIT_MILLIS = 2_000;

  /** Set under {@link #LOCK} by the first start; the runtime itself appears later. */
  private static boolean started;

  private AgentStarter() {}

  static void start(String agentArgs, Instrumentation instrumentation, boolean attached) {
    synchronized (LOCK) {
      if (started) {
        System.err.println(
            "faultline: the agent is already running in this JVM; ignoring " + agentArgs);
        return;
      }
      started = true;
      // First, before any other thread of ours reads a class file (see the class for why).
      ClassFileUrlHandlers.loadNow();
      PrintStream err = System.err;
      AgentTcpInfo.useInstrumentation(instrumentation);
      // Here, not on the start thread: the application may ask SocketFds for a channel's
      // descriptor as soon as main runs.
      String socketFdsUnavailable = null;
      try {
        socketFdsUnavailable =
            ModuleOpener.openSocketChannelInternals(
                instrumentation, AgentStarter.class.getModule());
        if (socketFdsUnavailable != null) {
          err.println(
              "faultline: socket descriptors by channel are unavailable: " + socketFdsUnavailable);
        }
      } catch (Throwable e) {
        err.println("faultline: opening java.base/sun.nio.ch failed, going on without it: " + e);
      }
      // Only what must precede main runs here: the configuration is read now but parsed on the
      // start thread, beside main. No lambdas up to the start thread: this is the application's
      // start path, where each lambda is a class spun at run time.
      ConfigSources sources = ConfigSources.ofProcessAtStart(agentArgs);
      List<String> discoveryFailures = new ArrayList<>();
      // Every module, whatever the configuration turns off: the gate must know their targets
      // before main runs. The start thread installs those that are on; a class remembered for
      // one that is off is left alone.
      List<InstrumentationModule> modules =
          InstrumentationInstaller.discover(AgentStarter.class.getClassLoader(), discoveryFailures);
      // The modules, the weaver and the meter registry take a while to load on a busy
      // 2-core machine: they are set up on a thread of their own while main starts. Nothing waits
      // for them: a targeted class that loads meanwhile is woven afterwards (DeferredTransformer).
      StartProblems problems = new StartProblems(sources, discoveryFailures, err);
      DeferredTransformer deferred =
          new DeferredTransformer(DeferredTransformer.Gate.of(modules), agentCode());
      instrumentation.addTransformer(deferred, true);
      Thread installer =
          new Thread(
              new StartThread(
                  problems,
                  instrumentation,
                  deferred,
                  modules,
                  socketFdsUnavailable,
                  attached,
                  err),
              "faultline-agent-start");
      installer.setDaemon(true);
      deferred.installingOn(installer);
      Runtime.getRuntime()
          .addShutdownHook(new Thread(new ExitReport(problems, err), "faultline-exit-report"));
      installer.start();
    }
  }

  /** The agent's start thread: the rest of the start, then the end of the start-up window. */
  private static final class StartThread implements Runnable {
    private final StartProblems problems;
    private final Instrumentation instrumentation;
    private final DeferredTransformer deferred;
    private final List<InstrumentationModule> modules;
    private final String socketFdsUnavailable;
    private final boolean attached;
    private final PrintStream err;

    StartThread(
        StartProblems problems,
        Instrumentation instrumentation,
        DeferredTransformer deferred,
        List<InstrumentationModule> modules,
        String socketFdsUnavailable,
        boolean attached,
        PrintStream err) {
      this.problems = problems;
      this.instrumentation = instrumentation;
      this.deferred = deferred;
      this.modules = modules;
      this.socketFdsUnavailable = socketFdsUnavailable;
      this.attached = attached;
      this.err = err;
    }

    @Override
    public void run() {
      try {
        finishStart();
      } catch (Throwable e) {
        // Never an uncaught exception's stack trace in the application's log: one line.
        err.println("faultline: the agent's start failed; the application runs without it: " + e);
      } finally {
        // Whatever failed, classes stop being remembered and timed.
        deferred.endStartup(0);
      }
    }

    /** The rest of the start. */
    private void finishStart() {
      long started = System.nanoTime();
      // Before the first logger of the agent's is made: see the class.
      String loggersUnavailable =
          QuietLoggers.install(instrumentation, AgentStarter.class.getModule());
      if (loggersUnavailable != null) {
        err.println(
            "faultline: the agent's first log line will set up java.util.logging (the JDK's lazy"
                + " loggers are unavailable: "
                + loggersUnavailable
                + ")");
      }
      FaultlineConfig config = problems.load();
      AgentErrors.setLimit(config.get(AgentConfigKeys.MODULE_ERROR_LIMIT));
      ScheduledExecutorService scheduler =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "faultline-agent");
                t.setDaemon(true);
                return t;
              });
      // The meter registry is created by the export, after the application's start-up: what
      // registers meters before that waits for it (AgentRegistry); the Prometheus registry that
      // writes them at /metrics is built on the first scrape (DeferredMetricsPage).
      AgentRegistry registry = new AgentRegistry(err);
      Findings findings = new Findings(config);
      StatusPage page = new StatusPage("Faultline agent " + AgentVersion.get());
      AgentRuntime runtime = new AgentRuntime(config, findings, registry, page, scheduler);
      if (socketFdsUnavailable != null) {
        runtime.setSocketFdsUnavailable(socketFdsUnavailable);
      }
      // Before any advice is woven: advice finds the runtime without waiting for it.
      AgentRuntime.setCurrent(runtime);
      AgentClassFiles classFiles =
          AgentClassFiles.of(agentCode(), AgentStarter.class.getClassLoader());
      InstrumentationInstaller installer =
          new InstrumentationInstaller(
              new DeferringInstrumentation(instrumentation, deferred),
              classFiles.loader(),
              attached);
      List<InstrumentationModule> installed =
          config.isFeatureEnabled(AgentConfigKeys.INSTRUMENTATION) ? modules : List.of();
      step(err, "installing instrumentation", () -> installModules(installer, runtime, installed));
      classFiles.close();
      List<DeferredTransformer.EarlyClass> early = deferred.endStartup(END_STARTUP_WAIT_MILLIS);
      int[] lateWoven = new int[1];
      step(
          err,
          "weaving classes loaded during the start",
          () -> lateWoven[0] = installer.weaveLate(early));
      AgentStartup startup =
          new AgentStartup(
              deferred.startupNanos(),
              lateWoven[0],
              TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      if (startup.applicationNanos() > AgentStartup.REPORT_ABOVE_NANOS) {
        err.printf(
            "faultline: application threads spent %d ms inside the agent while it started (more"
                + " than %d ms; faultline_agent_startup_blocked_seconds)%n",
            TimeUnit.NANOSECONDS.toMillis(startup.applicationNanos()),
            TimeUnit.NANOSECONDS.toMillis(AgentStartup.REPORT_ABOVE_NANOS));
      }
      step(err, "tracking connection churn", () -> ChurnTracking.start(runtime));
      // Installed from here on: the JDK connect module (connection churn) included.
      runtime.setStartup(startup);
      step(
          err,
          "adding findings to JFR recordings",
          () ->
              ActiveFindingsInRecordings.start(
                  runtime.findings(),
                  scheduler,
                  e ->
                      err.println(
                          "faultline: adding the active findings to JFR recordings failed: " + e)));
      // After the application's start-up: on a small machine the export's first run (meters,
      // endpoint, host doctor) would otherwise take a core from a service still starting.
      AfterStartup.schedule(
          scheduler,
          deferred::classesDefined,
          () -> {
            step(err, "starting export", () -> startExport(runtime, instrumentation, err));
            runtime.markExportStarted();
          });
    }
  }

  /**
   * The shutdown hook: the configuration's problems if the start thread never printed them, and
   * what the instrumentation modules could not do, if anything.
   */
  private static final class ExitReport implements Runnable {
    private final StartProblems problems;
    private final PrintStream err;

    ExitReport(StartProblems problems, PrintStream err) {
      this.problems = problems;
      this.err = err;
    }

    @Override
    public void run() {
      problems.printIfNotYet();
      String report = AgentErrors.exitReport();
      if (!report.isEmpty()) {
        err.println(report);
      }
    }
  }

  private static java.net.URL agentCode() {
    java.security.CodeSource source = AgentStarter.class.getProtectionDomain().getCodeSource();
    return source == null ? null : source.getLocation();
  }

  private static void installModules(
      InstrumentationInstaller installer,
      AgentRuntime runtime,
      List<InstrumentationModule> modules) {
    if (modules.isEmpty()) {
      return;
    }
    runtime.setModules(installer.install(modules, runtime.config()));
  }

  private static void startExport(
      AgentRuntime runtime, Instrumentation instrumentation, PrintStream err) {
    FaultlineConfig config = runtime.config();
    // Creates the registry and registers what waited for it.
    MeterRegistry registry = runtime.meters();
    if (config.isFeatureEnabled(AgentConfigKeys.MICROMETER_BRIDGE)) {
      // Here, with the registry: a service that loaded Micrometer meanwhile is bridged at once.
      step(
          err,
          "watching for the application's Micrometer",
          () ->
              MicrometerWatcher.watch(
                  instrumentation, new ApplicationMicrometerBridge(registry), runtime.scheduler()));
    }
    for (InstalledModule m : runtime.modules()) {
      AgentMeters.AGENT_ERRORS
          .functionCounter(m, InstalledModule::errors)
          .tags(AgentMeters.AGENT_ERRORS.tags(m.name()))
          .register(registry);
      AgentMeters.MODULE_ACTIVE
          .gauge(m, x -> x.moduleSwitch().active() ? 1 : 0)
          .tags(AgentMeters.MODULE_ACTIVE.tags(m.name()))
          .strongReference(true)
          .register(registry);
    }
    AgentMeters.STARTUP_BLOCKED
        .gauge(runtime, r -> r.startup().applicationSeconds())
        .strongReference(true)
        .register(registry);
    AgentMeters.STARTUP_LATE_WOVEN
        .gauge(runtime, r -> r.startup().lateWoven())
        .strongReference(true)
        .register(registry);
    FindingsMetrics.forClassPathCatalogs(runtime.findings()).bindTo(registry);
    boolean host = config.isFeatureEnabled(HostConfigKeys.FEATURE);
    if (host) {
      // Before the endpoint opens: its first scrape has every meter bound at start.
      step(err, "binding host TCP meters", () -> new HostTcpMetrics().bindTo(registry));
    }

    StatusPage page = runtime.statusPage();
    page.add(BuiltInSections.findings(runtime.findings()));
    page.add(BuiltInSections.hostDoctor(() -> runtime.doctorReport().orElse(null)));
    page.add(BuiltInSections.instrumentation(runtime::modules));
    page.add(BuiltInSections.configuration(config));

    ScrapeEndpoint endpoint =
        EndpointSetup.start(
            config,
            new EndpointSetup.Pages(
                new DeferredMetricsPage(registry, () -> runtime.phaseMeters().orElse(null)),
                () -> FindingsJson.of(runtime.findings().active()),
                () -> AgentStatusJson.of(runtime),
                () ->
                    page.render(
                        "Faultline agent "
                            + AgentVersion.get()
                            + " · Java "
                            + System.getProperty("java.version")
                            + " · /metrics · /faultline/findings · /faultline/agent")),
            err);
    if (endpoint != null) {
      runtime.setEndpointPort(endpoint.port());
    }
    step(
        err,
        "starting the OTLP export",
        () ->
            OtlpExporter.start(
                config, registry, () -> runtime.phaseMeters().orElse(null), runtime.scheduler()));

    if (host) {
      HostDoctorTask.schedule(runtime, config.get(AgentConfigKeys.DOCTOR_INTERVAL), err);
      step(err, "following the listeners' accept queues", () -> followListeners(runtime, err));
      step(err, "sweeping the accepted connections", () -> sweepAccepted(runtime, err));
    }
  }

  /**
   * Reads every connection this process accepted every {@code doctor.clients-interval}, the first
   * time with the export: the classes of its first run load then, not half a minute into a busy
   * steady state, where classes loading late can make HotSpot drop compiled code of the
   * application's that assumed they did not exist.
   */
  private static void sweepAccepted(AgentRuntime runtime, PrintStream err) {
    Duration interval = runtime.config().get(AgentConfigKeys.CLIENTS_INTERVAL);
    if (interval.isZero() || interval.isNegative()) {
      return;
    }
    AcceptedConnections accepted =
        new AcceptedConnections(
            SocketFds.forThisProcess(),
            AgentTcpInfo::reader,
            port -> runtime.endpointPort().map(own -> own == port).orElse(false),
            runtime.findings(),
            RequestClientIds.instance(),
            java.time.Clock.systemUTC());
    accepted.bindTo(runtime.meters());
    runtime
        .scheduler()
        .scheduleWithFixedDelay(
            () -> step(err, "sweeping the accepted connections", accepted::sweep),
            0,
            interval.toMillis(),
            TimeUnit.MILLISECONDS);
  }

  /** Samples this process's listeners' accept queues every {@code doctor.listener-interval}. */
  private static void followListeners(AgentRuntime runtime, PrintStream err) {
    Duration interval = runtime.config().get(AgentConfigKeys.LISTENER_INTERVAL);
    if (interval.isZero() || interval.isNegative()) {
      return;
    }
    ListenerQueues queues =
        new ListenerQueues(
            SocketFds.forThisProcess(),
            AgentTcpInfo::reader,
            port -> runtime.endpointPort().map(own -> own == port).orElse(false),
            runtime.findings());
    queues.bindTo(runtime.meters());
    runtime
        .scheduler()
        .scheduleWithFixedDelay(
            () -> step(err, "reading the listeners' accept queues", queues::sample),
            0,
            interval.toMillis(),
            TimeUnit.MILLISECONDS);
  }

  /**
   * Runs one start-up step; a failure is one stderr line and the next step still runs. A failure
   * while the JVM exits is the exit's, and stays silent.
   */
  private static void step(PrintStream err, String what, Runnable action) {
    try {
      action.run();
    } catch (Throwable e) {
      if (!JvmShutdown.inProgress()) {
        err.println("faultline: " + what + " failed, going on without it: " + e);
      }
    }
  }
}
