package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.phase.MeteredPhaseRecorder;
import io.faultline.kafka.phase.PhaseBuckets;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_35_0.Metrics;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The endpoint's text: the phase and gap timers as classic histograms, the rest as before. */
class PrometheusScrapeTest {

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicReference<PhaseMeters> phases = new AtomicReference<>();
  private final PrometheusScrape scrape = new PrometheusScrape(registry, phases::get);

  @Test
  void withoutKafkaClientsItIsTheRegistrysOwnText() {
    Counter.builder("faultline.test.things").register(registry).increment();

    assertThat(scrape.scrape()).isEqualTo(registry.scrape());
  }

  @Test
  void phaseAndGapTimersAreHistogramsWithTheConfiguredBucketsAndTheirTags() {
    Counter.builder("faultline.test.things").register(registry).increment();
    PhaseMeters meters =
        new PhaseMeters(
            registry,
            KafkaMeterTags.DEFAULT,
            PhaseBuckets.of(List.of(Duration.ofMillis(1), Duration.ofMillis(10))));
    phases.set(meters);
    var broker2 = new MeteredPhaseRecorder(meters, ClientType.PRODUCER, "p", "2", null);
    // queue 0.5 ms, transmit 20 ms, delivery 2 ms, response 3 ms, receive 0.1 ms
    broker2.record((short) 0, 500_000, 20_000_000, 2_000_000, 3_000_000, 100_000);
    broker2.record((short) 0, 500_000, 20_000_000, 2_000_000, 3_000_000, 100_000);

    String text = scrape.scrape();

    assertThat(text)
        .contains("# TYPE faultline_kafka_request_phase_seconds histogram")
        .contains("# TYPE faultline_kafka_request_gap_seconds histogram")
        .doesNotContain("summary")
        .contains("faultline_test_things_total 1.0");
    String transmit =
        "faultline_kafka_request_phase_seconds_bucket{api=\"produce\",client_type=\"producer\","
            + "node_id=\"2\",phase=\"transmit\",le=\"%s\"} %s";
    assertThat(text)
        .contains(transmit.formatted("0.001", "0"))
        .contains(transmit.formatted("0.01", "0"))
        .contains(transmit.formatted("+Inf", "2"));
    String queue =
        "faultline_kafka_request_phase_seconds_bucket{api=\"produce\",client_type=\"producer\","
            + "node_id=\"2\",phase=\"queue\",le=\"%s\"} %s";
    assertThat(text).contains(queue.formatted("0.001", "2"));
    assertThat(text)
        .contains(
            "faultline_kafka_request_gap_seconds_count{api=\"produce\",client_type=\"producer\","
                + "node_id=\"2\"} 2")
        .contains(
            "faultline_kafka_request_phase_seconds_sum{api=\"produce\",client_type=\"producer\","
                + "node_id=\"2\",phase=\"transmit\"} 0.04");
    // Every tag set of the timers is one data point: 5 phases and the gap here.
    assertThat(text.lines().filter(l -> l.contains("_bucket{") && l.contains("le=\"+Inf\"")))
        .hasSize(6);
  }

  @Test
  void aScraperThatAsksForProtobufGetsNativeBucketsBesideTheClassicOnes() throws Exception {
    PhaseMeters meters = new PhaseMeters(registry, KafkaMeterTags.DEFAULT);
    phases.set(meters);
    var broker2 = new MeteredPhaseRecorder(meters, ClientType.PRODUCER, "p", "2", null);
    for (int i = 0; i < 10; i++) {
      // transmit 20 ms nine times, 200 ms once
      broker2.record((short) 0, 500_000, i == 9 ? 200_000_000 : 20_000_000, 0, 3_000_000, 0);
    }

    ScrapeEndpoint.Page text = scrape.scrape("text/plain;version=0.0.4;q=0.5,*/*;q=0.1");
    assertThat(text.contentType()).startsWith("text/plain; version=0.0.4");
    ScrapeEndpoint.Page page =
        scrape.scrape(
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
                + "encoding=delimited;q=0.7,text/plain;version=0.0.4;q=0.3");
    assertThat(page.contentType()).startsWith("application/vnd.google.protobuf");

    Metrics.Histogram transmit = null;
    try (var in = new java.io.ByteArrayInputStream(page.body())) {
      Metrics.MetricFamily family;
      while ((family = Metrics.MetricFamily.parseDelimitedFrom(in)) != null) {
        if (!family.getName().equals("faultline_kafka_request_phase_seconds")) {
          continue;
        }
        for (Metrics.Metric m : family.getMetricList()) {
          if (m.getLabelList().stream()
              .anyMatch(l -> l.getName().equals("phase") && l.getValue().equals("transmit"))) {
            transmit = m.getHistogram();
          }
        }
      }
    }
    assertThat(transmit).as("the transmit histogram in the protobuf scrape").isNotNull();
    assertThat(transmit.getSampleCount()).isEqualTo(10);
    assertThat(transmit.getSchema()).isEqualTo(3);
    assertThat(transmit.getBucketCount()).as("classic buckets too").isPositive();
    // Native buckets: spans of consecutive indexes, counts as deltas from the previous bucket.
    List<Long> counts = new java.util.ArrayList<>();
    long running = 0;
    for (long delta : transmit.getPositiveDeltaList()) {
      running += delta;
      counts.add(running);
    }
    assertThat(counts.stream().mapToLong(Long::longValue).sum()).isEqualTo(10);
    assertThat(counts).containsExactlyInAnyOrder(9L, 1L);
    // 20 ms lies in the bucket whose upper bound is 2^(i/8) with i = ceil(8 * log2(0.02)) = -45.
    int first = transmit.getPositiveSpan(0).getOffset();
    assertThat(first).isBetween(-46, -44);
  }

  @Test
  void aClosedConnectionsCountsStayInItsBuckets() {
    PhaseMeters meters = new PhaseMeters(registry, KafkaMeterTags.DEFAULT);
    phases.set(meters);
    var first = new MeteredPhaseRecorder(meters, ClientType.CONSUMER, "c", "1", null);
    first.record((short) 1, 3_000_000, 0, -1, -1, 0);
    first.close();
    var second = new MeteredPhaseRecorder(meters, ClientType.CONSUMER, "c", "1", null);
    second.record((short) 1, 3_000_000, 0, -1, -1, 0);

    assertThat(scrape.scrape())
        .contains(
            "faultline_kafka_request_phase_seconds_bucket{api=\"fetch\",client_type=\"consumer\","
                + "node_id=\"1\",phase=\"queue\",le=\"0.005\"} 2");
  }
}
