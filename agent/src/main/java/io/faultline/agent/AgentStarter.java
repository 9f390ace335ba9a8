package io.faultline.agent;

import io.faultline.agent.export.ApplicationMicrometerBridge;
import io.faultline.agent.export.BuiltInSections;
import io.faultline.agent.export.EndpointSetup;
import io.faultline.agent.export.FindingsJson;
import io.faultline.agent.export.MicrometerWatcher;
import io.faultline.agent.export.ScrapeEndpoint;
import io.faultline.agent.export.StatusPage;
import io.faultline.agent.instrumentation.AgentErrors;
import io.faultline.agent.instrumentation.DeferredTransformer;
import io.faultline.agent.instrumentation.DeferringInstrumentation;
import io.faultline.agent.instrumentation.InstalledModule;
import io.faultline.agent.instrumentation.InstrumentationInstaller;
import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.net.ChurnTracking;
import io.faultline.core.config.ConfigProblem;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.core.finding.FindingsMetrics;
import io.faultline.core.host.DoctorOptions;
import io.faultline.core.host.HostConfigKeys;
import io.faultline.core.host.HostDoctor;
import io.faultline.core.host.HostTcpMetrics;
import io.faultline.core.host.ProcFs;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Starts the agent. On the thread of {@code premain}: configuration (problems printed to stderr),
 * {@code java.base/sun.nio.ch} opened, the modules discovered and the {@link DeferredTransformer}
 * registered. Then, on the agent's start thread while {@code main} runs: the meter registry, the
 * instrumentation modules (a class one of them weaves that {@code main} loads meanwhile waits for
 * them), connection churn, the Micrometer bridge; and on the agent's scheduler: the endpoint and
 * the host doctor. Each step that fails is reported and skipped; the others still run.
 */
final class AgentStarter {

  private static final Object LOCK = new Object();

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
      PrintStream err = System.err;
      FaultlineConfig config = FaultlineConfig.load(agentArgs);
      for (ConfigProblem problem : config.problems()) {
        err.println(problem.toLine());
      }
      AgentErrors.setLimit(config.get(AgentConfigKeys.MODULE_ERROR_LIMIT));

      String[] socketFdsUnavailable = new String[1];
      step(
          err,
          "opening java.base/sun.nio.ch",
          () -> {
            socketFdsUnavailable[0] =
                ModuleOpener.openSocketChannelInternals(
                    instrumentation, AgentStarter.class.getModule());
            if (socketFdsUnavailable[0] != null) {
              err.println(
                  "faultline: socket descriptors by channel are unavailable: "
                      + socketFdsUnavailable[0]);
            }
          });
      List<InstrumentationModule> modules = discoverModules(config);
      // Byte Buddy, the modules and the meter registry take most of a second to load on a busy
      // 2-core machine: they are set up on a thread of their own while main starts, and a class
      // a module weaves waits at the deferred transformer until they are ready (see there).
      DeferredTransformer deferred =
          new DeferredTransformer(
              DeferredTransformer.Gate.anyOf(enabled(modules, config)), agentCode());
      instrumentation.addTransformer(deferred, true);
      Thread installer =
          new Thread(
              () -> {
                try {
                  finishStart(
                      config, instrumentation, deferred, modules, socketFdsUnavailable[0], err);
                } finally {
                  deferred.ready();
                  AgentRuntime.startEnded();
                }
              },
              "faultline-agent-start");
      installer.setDaemon(true);
      deferred.installingOn(installer);
      AgentRuntime.startingOn(installer);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    String report = AgentErrors.exitReport();
                    if (!report.isEmpty()) {
                      err.println(report);
                    }
                  },
                  "faultline-exit-report"));
      installer.start();
    }
  }

  /** The rest of the start, on the agent's start thread. */
  private static void finishStart(
      FaultlineConfig config,
      Instrumentation instrumentation,
      DeferredTransformer deferred,
      List<InstrumentationModule> modules,
      String socketFdsUnavailable,
      PrintStream err) {
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "faultline-agent");
              t.setDaemon(true);
              return t;
            });
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Findings findings = new Findings(config);
    StatusPage page = new StatusPage("Faultline agent " + AgentVersion.get());
    AgentRuntime runtime = new AgentRuntime(config, findings, registry, page, scheduler);
    if (socketFdsUnavailable != null) {
      runtime.setSocketFdsUnavailable(socketFdsUnavailable);
    }
    step(
        err,
        "installing instrumentation",
        () ->
            installModules(
                new DeferringInstrumentation(instrumentation, deferred), runtime, modules));
    step(err, "tracking connection churn", () -> ChurnTracking.start(runtime));
    if (config.isFeatureEnabled(AgentConfigKeys.MICROMETER_BRIDGE)) {
      step(
          err,
          "watching for the application's Micrometer",
          () ->
              MicrometerWatcher.watch(
                  instrumentation, new ApplicationMicrometerBridge(registry), scheduler));
    }
    AgentRuntime.setCurrent(runtime);
    deferred.ready();
    AgentRuntime.startEnded();
    scheduler.execute(
        () -> {
          step(err, "starting export", () -> startExport(runtime, err));
          runtime.markExportStarted();
        });
  }

  private static java.net.URL agentCode() {
    java.security.CodeSource source = AgentStarter.class.getProtectionDomain().getCodeSource();
    return source == null ? null : source.getLocation();
  }

  private static List<InstrumentationModule> discoverModules(FaultlineConfig config) {
    if (!config.isFeatureEnabled(AgentConfigKeys.INSTRUMENTATION)) {
      return List.of();
    }
    return InstrumentationInstaller.discover(AgentStarter.class.getClassLoader());
  }

  /** The modules that will be installed (a module that cannot say its feature is left out). */
  private static List<InstrumentationModule> enabled(
      List<InstrumentationModule> modules, FaultlineConfig config) {
    List<InstrumentationModule> on = new ArrayList<>();
    for (InstrumentationModule m : modules) {
      try {
        if (config.isFeatureEnabled(m.feature())) {
          on.add(m);
        }
      } catch (RuntimeException e) {
        // reported by the installer, which skips it
      }
    }
    return on;
  }

  private static void installModules(
      Instrumentation instrumentation, AgentRuntime runtime, List<InstrumentationModule> modules) {
    if (modules.isEmpty()) {
      return;
    }
    ClassLoader agentLoader = AgentStarter.class.getClassLoader();
    List<InstalledModule> installed =
        new InstrumentationInstaller(instrumentation, agentLoader)
            .install(modules, runtime.config());
    runtime.setModules(installed);
  }

  private static void startExport(AgentRuntime runtime, PrintStream err) {
    FaultlineConfig config = runtime.config();
    PrometheusMeterRegistry registry = (PrometheusMeterRegistry) runtime.meters();
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
    FindingsMetrics.forClassPathCatalogs(runtime.findings()).bindTo(registry);

    StatusPage page = runtime.statusPage();
    page.add(BuiltInSections.findings(runtime.findings()));
    page.add(BuiltInSections.hostDoctor(() -> runtime.doctorReport().orElse(null)));
    page.add(BuiltInSections.instrumentation(runtime::modules));
    page.add(BuiltInSections.configuration(config));

    ScrapeEndpoint endpoint =
        EndpointSetup.start(
            config,
            new EndpointSetup.Pages(
                registry::scrape,
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

    if (config.isFeatureEnabled(HostConfigKeys.FEATURE)) {
      step(err, "binding host TCP meters", () -> new HostTcpMetrics().bindTo(registry));
      Duration interval = config.get(AgentConfigKeys.DOCTOR_INTERVAL);
      Runnable doctor =
          () ->
              step(
                  err,
                  "running the host doctor",
                  () -> {
                    var report =
                        new HostDoctor(ProcFs.system(), DoctorOptions.defaults()).examine();
                    runtime.setDoctorReport(report);
                    runtime.findings().replaceAll("host.doctor", report.findings());
                  });
      if (interval.isZero() || interval.isNegative()) {
        runtime.scheduler().execute(doctor);
      } else {
        runtime
            .scheduler()
            .scheduleWithFixedDelay(doctor, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  /** Runs one start-up step; a failure is one stderr line and the next step still runs. */
  private static void step(PrintStream err, String what, Runnable action) {
    try {
      action.run();
    } catch (Throwable e) {
      err.println("faultline: " + what + " failed, going on without it: " + e);
    }
  }
}
