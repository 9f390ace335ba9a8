package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OtlpSettingsTest {

  private static FaultlineConfig config(String args) {
    return FaultlineConfig.builder().sources(ConfigSources.of(Map.of(), Map.of(), args)).load();
  }

  @Test
  void noEndpointAnywhereMeansNoExport() {
    assertThat(OtlpSettings.from(config(""), Map.of())).isEmpty();
  }

  @Test
  void theOpenTelemetryVariablesAreHonoured() {
    OtlpSettings s =
        OtlpSettings.from(
                config(""),
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/",
                    "OTEL_METRIC_EXPORT_INTERVAL", "15000",
                    "OTEL_EXPORTER_OTLP_HEADERS", "api-key=a%2Cb,x-team=kafka",
                    "OTEL_SERVICE_NAME", "orders",
                    "OTEL_RESOURCE_ATTRIBUTES", "service.name=other,k8s.pod.name=orders-7"))
            .orElseThrow();
    assertThat(s.metricsUrl()).isEqualTo(URI.create("http://collector:4318/v1/metrics"));
    assertThat(s.interval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(s.headers()).containsEntry("api-key", "a,b").containsEntry("x-team", "kafka");
    assertThat(s.resource())
        .containsEntry("service.name", "orders")
        .containsEntry("k8s.pod.name", "orders-7");
  }

  @Test
  void anSdkEndpointThatSpeaksGrpcIsLeftAlone() {
    assertThat(
            OtlpSettings.from(
                config(""),
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317",
                    "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")))
        .isEmpty();
    assertThat(
            OtlpSettings.from(
                config("otlp.endpoint=http://collector:4318"),
                Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")))
        .isPresent();
  }

  @Test
  void faultlinesOwnKeysWinAndTheMetricsEndpointIsTakenAsItIs() {
    OtlpSettings own =
        OtlpSettings.from(
                config("otlp.endpoint=http://mine:4318,otlp.interval=5s"),
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
                    "OTEL_METRIC_EXPORT_INTERVAL", "15000"))
            .orElseThrow();
    assertThat(own.metricsUrl()).isEqualTo(URI.create("http://mine:4318/v1/metrics"));
    assertThat(own.interval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(own.resource()).containsEntry("service.name", "unknown_service:java");

    OtlpSettings metricsOnly =
        OtlpSettings.from(
                config(""),
                Map.of("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "https://otlp.example/custom/path"))
            .orElseThrow();
    assertThat(metricsOnly.metricsUrl()).isEqualTo(URI.create("https://otlp.example/custom/path"));
  }

  @Test
  void histogramsAreExplicitUnlessTheKeyOrTheSdksVariableAsksForExponential() {
    Map<String, String> endpoint = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318");
    assertThat(OtlpSettings.from(config(""), endpoint).orElseThrow().histograms())
        .isEqualTo(OtlpHistograms.EXPLICIT);
    assertThat(
            OtlpSettings.from(config("otlp.histograms=exponential"), endpoint)
                .orElseThrow()
                .histograms())
        .isEqualTo(OtlpHistograms.EXPONENTIAL);
    Map<String, String> sdk =
        Map.of(
            "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
            "OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION",
                "BASE2_EXPONENTIAL_BUCKET_HISTOGRAM");
    assertThat(OtlpSettings.from(config(""), sdk).orElseThrow().histograms())
        .isEqualTo(OtlpHistograms.EXPONENTIAL);
  }
}
