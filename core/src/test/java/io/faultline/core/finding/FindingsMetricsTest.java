package io.faultline.core.finding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FindingsMetricsTest {

  private final Findings findings =
      new Findings(Duration.ofMinutes(10), new MutableClock(), new RecordingLogger());
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void exportsActiveCountsByIdAndSeverityAndRaisesById() {
    try (FindingsMetrics metrics =
        new FindingsMetrics(findings, List.of(FindingsTest.WINDOW, FindingsTest.PORTS))) {
      metrics.bindTo(registry);

      findings.raise(Finding.of(FindingsTest.WINDOW, "node 1").build());
      findings.raise(Finding.of(FindingsTest.WINDOW, "node 2").build());
      findings.raise(Finding.of(FindingsTest.WINDOW, "node 3").severity(Severity.CRITICAL).build());
      findings.clear("WINDOW_SCALING_OFF", "node 3");

      assertThat(active("WINDOW_SCALING_OFF", "WARNING")).isEqualTo(2);
      assertThat(active("WINDOW_SCALING_OFF", "CRITICAL")).isZero();
      assertThat(active("EPHEMERAL_PORTS_LOW", "INFO")).isZero();
      assertThat(
              registry
                  .get("faultline.findings.raised")
                  .tag("id", "WINDOW_SCALING_OFF")
                  .functionCounter()
                  .count())
          .isEqualTo(3);
    }
  }

  @Test
  void everyMeterHasItsDeclaredDescriptionAndUnitAndCloseRemovesThemAll() {
    FindingsMetrics metrics = new FindingsMetrics(findings, List.of(FindingsTest.WINDOW));
    metrics.bindTo(registry);

    assertThat(registry.getMeters()).hasSize(Severity.values().length + 1);
    assertThat(registry.getMeters())
        .extracting(Meter::getId)
        .allSatisfy(
            id -> {
              assertThat(id.getDescription()).isNotBlank();
              assertThat(id.getBaseUnit()).isEqualTo("findings");
            });

    metrics.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void twoTaggedExportersShareARegistryAndCloseRemovesOnlyItsOwn() {
    Findings other =
        new Findings(Duration.ofMinutes(10), new MutableClock(), new RecordingLogger());
    FindingsMetrics orders =
        new FindingsMetrics(findings, List.of(FindingsTest.WINDOW), Tags.of("app", "orders"));
    FindingsMetrics billing =
        new FindingsMetrics(other, List.of(FindingsTest.WINDOW), Tags.of("app", "billing"));
    orders.bindTo(registry);
    billing.bindTo(registry);

    findings.raise(Finding.of(FindingsTest.WINDOW, "node 1").build());
    other.raise(Finding.of(FindingsTest.WINDOW, "node 1").build());
    other.raise(Finding.of(FindingsTest.WINDOW, "node 2").build());

    assertThat(raised("orders")).isEqualTo(1);
    assertThat(raised("billing")).isEqualTo(2);
    int each = Severity.values().length + 1;
    assertThat(registry.getMeters()).hasSize(2 * each);

    orders.close();
    assertThat(registry.getMeters())
        .hasSize(each)
        .allSatisfy(m -> assertThat(m.getId().getTag("app")).isEqualTo("billing"));
    assertThat(raised("billing")).isEqualTo(2);
    billing.close();
  }

  @Test
  void refusesATagKeyTheMetersSetThemselves() {
    assertThatThrownBy(() -> new FindingsMetrics(findings, List.of(), Tags.of("severity", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'severity'")
        .hasMessageContaining("faultline.findings.active");
  }

  private double raised(String app) {
    return registry
        .get("faultline.findings.raised")
        .tags("id", "WINDOW_SCALING_OFF", "app", app)
        .functionCounter()
        .count();
  }

  @Test
  void theClassPathCatalogsProvideTheKnownIds() {
    try (FindingsMetrics metrics = FindingsMetrics.forClassPathCatalogs(findings)) {
      metrics.bindTo(registry);

      assertThat(registry.find("faultline.findings.raised").tag("id", "CONFIGURATION_REJECTED"))
          .extracting(s -> s.functionCounter())
          .isNotNull();
    }
  }

  private double active(String id, String severity) {
    return registry
        .get("faultline.findings.active")
        .tags("id", id, "severity", severity)
        .gauge()
        .value();
  }
}
