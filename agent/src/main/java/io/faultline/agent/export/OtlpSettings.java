package io.faultline.agent.export;

import io.faultline.agent.AgentConfigKeys;
import io.faultline.core.config.FaultlineConfig;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where and how the agent exports OTLP: Faultline's {@code otlp.*} keys first, else the
 * OpenTelemetry SDK's standard variables ({@code OTEL_EXPORTER_OTLP_METRICS_ENDPOINT}, {@code
 * OTEL_EXPORTER_OTLP_ENDPOINT}, {@code OTEL_EXPORTER_OTLP_HEADERS}, {@code
 * OTEL_METRIC_EXPORT_INTERVAL}, {@code OTEL_SERVICE_NAME}, {@code OTEL_RESOURCE_ATTRIBUTES}, {@code
 * OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION}), so a pod already set up for the
 * OpenTelemetry agent exports Faultline's metrics to the same collector.
 *
 * @param metricsUrl the OTLP/HTTP metrics URL ({@code .../v1/metrics})
 * @param interval time between two exports
 * @param headers extra request headers (e.g. an authorization token)
 * @param resource the resource attributes ({@code service.name} always among them)
 * @param histograms how the phase and gap histograms are written
 */
record OtlpSettings(
    URI metricsUrl,
    Duration interval,
    Map<String, String> headers,
    Map<String, String> resource,
    OtlpHistograms histograms) {

  /** The settings, or empty when no endpoint is configured (OTLP export off). */
  static Optional<OtlpSettings> from(FaultlineConfig config, Map<String, String> env) {
    String endpoint = config.get(AgentConfigKeys.OTLP_ENDPOINT).strip();
    URI url;
    if (!endpoint.isEmpty()) {
      url = metricsUrl(endpoint);
    } else if (grpc(env)) {
      // The SDK's endpoint then speaks gRPC (port 4317); this exporter speaks OTLP/HTTP only.
      return Optional.empty();
    } else if (!env.getOrDefault("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "").isBlank()) {
      url = URI.create(env.get("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT").strip());
    } else if (!env.getOrDefault("OTEL_EXPORTER_OTLP_ENDPOINT", "").isBlank()) {
      url = metricsUrl(env.get("OTEL_EXPORTER_OTLP_ENDPOINT").strip());
    } else {
      return Optional.empty();
    }
    Duration interval = config.get(AgentConfigKeys.OTLP_INTERVAL);
    // Faultline's own key wins when it is set to anything but its default.
    if (interval.equals(AgentConfigKeys.OTLP_INTERVAL.defaultValue())
        && env.containsKey("OTEL_METRIC_EXPORT_INTERVAL")) {
      try {
        interval =
            Duration.ofMillis(Long.parseLong(env.get("OTEL_METRIC_EXPORT_INTERVAL").strip()));
      } catch (NumberFormatException e) {
        // the key's default stands
      }
    }
    String headerText = config.get(AgentConfigKeys.OTLP_HEADERS);
    if (headerText.isBlank()) {
      headerText = env.getOrDefault("OTEL_EXPORTER_OTLP_HEADERS", "");
    }
    Map<String, String> resource = pairs(env.getOrDefault("OTEL_RESOURCE_ATTRIBUTES", ""));
    String serviceName = env.getOrDefault("OTEL_SERVICE_NAME", "").strip();
    if (!serviceName.isEmpty()) {
      resource.put("service.name", serviceName);
    }
    resource.putIfAbsent("service.name", "unknown_service:java");
    resource.putIfAbsent("telemetry.sdk.name", "faultline");
    OtlpHistograms histograms = config.get(AgentConfigKeys.OTLP_HISTOGRAMS);
    if (histograms == AgentConfigKeys.OTLP_HISTOGRAMS.defaultValue()
        && "base2_exponential_bucket_histogram"
            .equalsIgnoreCase(
                env.getOrDefault("OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION", "")
                    .strip())) {
      histograms = OtlpHistograms.EXPONENTIAL;
    }
    return Optional.of(new OtlpSettings(url, interval, pairs(headerText), resource, histograms));
  }

  /** Whether the SDK's variables say its endpoint speaks gRPC. */
  static boolean grpc(Map<String, String> env) {
    String protocol =
        env.getOrDefault(
            "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
            env.getOrDefault("OTEL_EXPORTER_OTLP_PROTOCOL", ""));
    return protocol.strip().equalsIgnoreCase("grpc");
  }

  /** An endpoint given as the collector's base URL gets the metrics path, as the SDK does. */
  private static URI metricsUrl(String base) {
    String b = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    return URI.create(b.endsWith("/v1/metrics") ? b : b + "/v1/metrics");
  }

  /** {@code k=v,k=v} (the W3C baggage form the SDK uses), values URL-decoded. */
  static Map<String, String> pairs(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String part : text.split(",")) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      String key = part.substring(0, eq).strip();
      String value =
          java.net.URLDecoder.decode(
              part.substring(eq + 1).strip(), java.nio.charset.StandardCharsets.UTF_8);
      if (!key.isEmpty()) {
        out.put(key, value);
      }
    }
    return out;
  }
}
