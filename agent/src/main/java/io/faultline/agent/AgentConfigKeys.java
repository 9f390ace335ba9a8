package io.faultline.agent;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigKeyCatalog;
import java.time.Duration;
import java.util.List;

/** The configuration keys the agent itself reads: export, the Micrometer bridge, fail-safety. */
public final class AgentConfigKeys implements ConfigKeyCatalog {

  /** Feature of the scrape endpoint and the status page. */
  public static final String PROMETHEUS = "prometheus";

  /** Feature of the mirror into the application's own Micrometer registry. */
  public static final String MICROMETER_BRIDGE = "micrometer.bridge";

  /** Feature of the instrumentation framework as a whole. */
  public static final String INSTRUMENTATION = "instrumentation";

  /** Address the endpoint binds to. */
  public static final ConfigKey<String> PROMETHEUS_HOST =
      ConfigKey.string(
          "prometheus.host",
          "127.0.0.1",
          PROMETHEUS,
          "Address the scrape endpoint and status page bind to. 0.0.0.0 exposes them to the"
              + " network (e.g. for a Prometheus outside the pod).");

  /** Port of the endpoint; 0 turns it off. */
  public static final ConfigKey<Integer> PROMETHEUS_PORT =
      ConfigKey.integer(
          "prometheus.port",
          9464,
          PROMETHEUS,
          "Port of the endpoint serving /metrics (Prometheus text), /faultline/findings (JSON),"
              + " /faultline/agent (JSON) and the status page at /. 0 turns the endpoint off; a"
              + " port already taken is reported once and the agent goes on without it.");

  /** Whether to mirror Faultline's meters into the application's Micrometer. */
  public static final ConfigKey<Boolean> MICROMETER_BRIDGE_ENABLED =
      ConfigKey.bool(
          MICROMETER_BRIDGE,
          true,
          MICROMETER_BRIDGE,
          "When the application has Micrometer, mirror every Faultline meter into its"
              + " Metrics.globalRegistry under the same name (so Spring Boot's actuator shows"
              + " them).");

  /** Master switch of every instrumentation module. */
  public static final ConfigKey<Boolean> INSTRUMENTATION_ENABLED =
      ConfigKey.bool(
          INSTRUMENTATION,
          true,
          INSTRUMENTATION,
          "Install the instrumentation modules (each also has its own feature switch). Off, the"
              + " agent only exports host checks and the status page.");

  /** Suppressed advice errors after which a module turns itself off. */
  public static final ConfigKey<Integer> MODULE_ERROR_LIMIT =
      ConfigKey.integer(
          "instrumentation.error-limit",
          20,
          INSTRUMENTATION,
          "Errors a module's advice may throw (each is suppressed and counted in"
              + " faultline.agent.errors) before the module turns itself off for the rest of the"
              + " run. A failed weave turns it off at once.");

  /** How often the host doctor runs inside the agent. */
  public static final ConfigKey<Duration> DOCTOR_INTERVAL =
      ConfigKey.duration(
          "doctor.interval",
          Duration.ofMinutes(5),
          "doctor",
          "How often the agent re-runs the host doctor's checks (first run right after start);"
              + " the results are findings and a section of the status page. 0s runs them once.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public AgentConfigKeys() {}

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        PROMETHEUS_HOST,
        PROMETHEUS_PORT,
        MICROMETER_BRIDGE_ENABLED,
        INSTRUMENTATION_ENABLED,
        MODULE_ERROR_LIMIT,
        DOCTOR_INTERVAL);
  }
}
