package io.faultline.agent;

import io.faultline.agent.export.ApplicationMicrometerBridge;
import io.faultline.agent.export.BuiltInSections;
import io.faultline.agent.export.FindingsJson;
import io.faultline.agent.export.MicrometerWatcher;
import io.faultline.agent.export.ScrapeEndpoint;
import io.faultline.agent.export.StatusPage;
import io.faultline.agent.instrumentation.AgentErrors;
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
import java.io.IOException;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Starts the agent, in this order: configuration (problems printed to stderr), {@code
 * java.base/sun.nio.ch} opened, the instrumentation modules installed (before {@code main} loads
 * their targets), then — on the agent's own daemon thread, so {@code main} is not kept waiting —
 * meters, the endpoint and the host doctor. Each step that fails is reported and skipped; the
 * others still run.
 */
final class AgentStarter {

  private static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private static final Object LOCK = new Object();

  private AgentStarter() {}

  static void start(String agentArgs, Instrumentation instrumentation, boolean attached) {
    synchronized (LOCK) {
      if (AgentRuntime.current().isPresent()) {
        System.err.println(
            "faultline: the agent is already running in this JVM; ignoring " + agentArgs);
        return;
      }
      PrintStream err = System.err;
      FaultlineConfig config = FaultlineConfig.load(agentArgs);
      for (ConfigProblem problem : config.problems()) {
        err.println(problem.toLine());
      }
      AgentErrors.setLimit(config.get(AgentConfigKeys.MODULE_ERROR_LIMIT));

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

      step(
          err,
          "opening java.base/sun.nio.ch",
          () -> {
            String reason =
                ModuleOpener.openSocketChannelInternals(
                    instrumentation, AgentStarter.class.getModule());
            if (reason != null) {
              runtime.setSocketFdsUnavailable(reason);
              err.println("faultline: socket descriptors by channel are unavailable: " + reason);
            }
          });
      step(err, "installing instrumentation", () -> installModules(instrumentation, runtime));
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
      scheduler.execute(
          () -> {
            step(err, "starting export", () -> startExport(runtime, err));
            runtime.markExportStarted();
          });
    }
  }

  private static void installModules(Instrumentation instrumentation, AgentRuntime runtime) {
    if (!runtime.config().isFeatureEnabled(AgentConfigKeys.INSTRUMENTATION)) {
      return;
    }
    ClassLoader agentLoader = AgentStarter.class.getClassLoader();
    List<InstrumentationModule> modules = InstrumentationInstaller.discover(agentLoader);
    if (modules.isEmpty()) {
      return;
    }
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

    if (config.isFeatureEnabled(AgentConfigKeys.PROMETHEUS)) {
      int port = config.get(AgentConfigKeys.PROMETHEUS_PORT);
      String host = config.get(AgentConfigKeys.PROMETHEUS_HOST);
      if (port < 0 || port > 65535) {
        err.println(
            "faultline: prometheus.port="
                + port
                + " is not a port (0 turns the endpoint off, 1-65535 is a port); the endpoint is"
                + " off");
      } else if (port > 0) {
        Map<String, ScrapeEndpoint.Body> routes = new LinkedHashMap<>();
        routes.put("/metrics", new ScrapeEndpoint.Body(PROMETHEUS_CONTENT_TYPE, registry::scrape));
        routes.put(
            "/faultline/findings",
            new ScrapeEndpoint.Body(
                "application/json", () -> FindingsJson.of(runtime.findings().active())));
        routes.put(
            "/faultline/agent",
            new ScrapeEndpoint.Body("application/json", () -> AgentStatusJson.of(runtime)));
        routes.put(
            "/",
            new ScrapeEndpoint.Body(
                "text/html; charset=utf-8",
                () ->
                    page.render(
                        "Faultline agent "
                            + AgentVersion.get()
                            + " · Java "
                            + System.getProperty("java.version")
                            + " · /metrics · /faultline/findings · /faultline/agent")));
        try {
          ScrapeEndpoint endpoint = ScrapeEndpoint.start(host, port, routes);
          runtime.setEndpointPort(endpoint.port());
        } catch (IOException | RuntimeException e) {
          err.println(
              "faultline: cannot serve /metrics and the status page on "
                  + host
                  + ":"
                  + port
                  + " ("
                  + e
                  + "); set prometheus.port to a free port, or 0 to turn the endpoint off. The"
                  + " agent goes on without it.");
        }
      }
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
