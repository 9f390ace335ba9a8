package io.faultline.agent;

import io.faultline.agent.export.Exposure;
import io.faultline.agent.export.OtlpHistograms;
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
          "Address the endpoint binds to. 0.0.0.0 exposes it to the network (e.g. for a"
              + " Prometheus outside the pod): then set prometheus.token or restrict who can"
              + " connect (e.g. a Kubernetes NetworkPolicy).");

  /** Port of the endpoint; 0 turns it off. */
  public static final ConfigKey<Integer> PROMETHEUS_PORT =
      ConfigKey.integer(
          "prometheus.port",
          9464,
          PROMETHEUS,
          "Port of the endpoint serving /metrics (Prometheus text), /faultline/findings (JSON),"
              + " /faultline/agent (JSON) and the status page at /. 0 turns the endpoint off; a"
              + " port already taken is reported once and the agent goes on without it.");

  /** Who may read the findings. */
  public static final ConfigKey<Exposure> PROMETHEUS_FINDINGS =
      ConfigKey.enumKey(
          "prometheus.findings",
          Exposure.class,
          Exposure.LOOPBACK,
          PROMETHEUS,
          "Who may read /faultline/findings (call sites, hosts, statements with their literals"
              + " masked): on (every client that reaches the endpoint), loopback (clients on this"
              + " host only, e.g. through kubectl port-forward; others get 403) or off (404)."
              + " /metrics is always served.");

  /** Who may read the status page and the agent's state. */
  public static final ConfigKey<Exposure> PROMETHEUS_STATUS_PAGE =
      ConfigKey.enumKey(
          "prometheus.status-page",
          Exposure.class,
          Exposure.LOOPBACK,
          PROMETHEUS,
          "Who may read the status page at / and /faultline/agent (configuration, modules,"
              + " clients, findings): on, loopback (clients on this host only) or off.");

  /** A bearer token every request must carry. */
  public static final ConfigKey<String> PROMETHEUS_TOKEN =
      ConfigKey.secret(
          "prometheus.token",
          PROMETHEUS,
          "When set, every request to the endpoint must carry the header Authorization: Bearer"
              + " followed by this token (else 401). Never shown; prefer prometheus.token-file,"
              + " which keeps the token out of the command line and the environment.");

  /** A file holding the bearer token. */
  public static final ConfigKey<String> PROMETHEUS_TOKEN_FILE =
      ConfigKey.string(
          "prometheus.token-file",
          "",
          PROMETHEUS,
          "File holding the endpoint's bearer token (read once at start, surrounding whitespace"
              + " trimmed), e.g. a mounted Kubernetes secret. A file that cannot be read or is empty"
              + " keeps the endpoint closed, never open.");

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
          "How often the agent re-runs the host doctor's checks (first run once the start-up has"
              + " settled); the results are findings and a section of the status page. 0s runs them"
              + " once.");

  /** How often the agent reads its listeners' accept queues. */
  public static final ConfigKey<Duration> LISTENER_INTERVAL =
      ConfigKey.duration(
          "doctor.listener-interval",
          Duration.ofSeconds(5),
          "doctor",
          "How often the agent reads the accept queue of each listener of this process (its"
              + " own endpoint aside) from the listening socket's TCP_INFO: the"
              + " faultline.host.tcp.listener.queue gauges and LISTENER_QUEUE_FULL. 0s: never.");

  /** How often the agent sweeps the connections its process accepted. */
  public static final ConfigKey<Duration> CLIENTS_INTERVAL =
      ConfigKey.duration(
          "doctor.clients-interval",
          Duration.ofSeconds(30),
          "doctor",
          "How often the agent reads the TCP_INFO of every connection its process accepted on a"
              + " listener (a broker's clients): faultline.host.tcp.accepted.* (window scaling,"
              + " RTT, windows, retransmits, rwnd-limited time, the top clients) and"
              + " CLIENTS_WITHOUT_WINDOW_SCALING, naming the clients. 0s: never.");

  /** Where OTLP metrics go. */
  public static final ConfigKey<String> OTLP_ENDPOINT =
      ConfigKey.string(
          "otlp.endpoint",
          "",
          "otlp",
          "OTLP/HTTP collector to export Faultline's metrics to (JSON encoding), e.g."
              + " http://collector:4318 (/v1/metrics is added) or the full metrics URL; empty:"
              + " OTEL_EXPORTER_OTLP_METRICS_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT when set, else"
              + " no OTLP export. OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name the resource.");

  /** How often OTLP metrics are exported. */
  public static final ConfigKey<Duration> OTLP_INTERVAL =
      ConfigKey.duration(
          "otlp.interval",
          Duration.ofSeconds(60),
          "otlp",
          "Time between two OTLP exports (cumulative temporality); at its default,"
              + " OTEL_METRIC_EXPORT_INTERVAL (milliseconds) applies when set.");

  /** Extra headers of OTLP requests. */
  public static final ConfigKey<String> OTLP_HEADERS =
      ConfigKey.secret(
          "otlp.headers",
          "otlp",
          "Extra headers of OTLP requests as key=value,key=value (e.g. an authorization"
              + " token); empty: OTEL_EXPORTER_OTLP_HEADERS. Never shown.");

  /** How the phase and gap histograms go over OTLP. */
  public static final ConfigKey<OtlpHistograms> OTLP_HISTOGRAMS =
      ConfigKey.enumKey(
          "otlp.histograms",
          OtlpHistograms.class,
          OtlpHistograms.EXPLICIT,
          "otlp",
          "How the Kafka phase and gap histograms are exported over OTLP: explicit (buckets at"
              + " kafka.phases.buckets, as /metrics has) or exponential (base-2 exponential"
              + " buckets, eight per power of two, read off the same log-linear histograms); at"
              + " its default, OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION="
              + "base2_exponential_bucket_histogram selects exponential.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public AgentConfigKeys() {}

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        PROMETHEUS_HOST,
        PROMETHEUS_PORT,
        PROMETHEUS_FINDINGS,
        PROMETHEUS_STATUS_PAGE,
        PROMETHEUS_TOKEN,
        PROMETHEUS_TOKEN_FILE,
        MICROMETER_BRIDGE_ENABLED,
        INSTRUMENTATION_ENABLED,
        MODULE_ERROR_LIMIT,
        DOCTOR_INTERVAL,
        LISTENER_INTERVAL,
        CLIENTS_INTERVAL,
        OTLP_ENDPOINT,
        OTLP_INTERVAL,
        OTLP_HEADERS,
        OTLP_HISTOGRAMS);
  }
}
