package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.KafkaMeters;
import io.faultline.kafka.phase.MeteredPhaseRecorder;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The OTLP request body: the phase and gap timers once each, with their buckets. */
class OtlpJsonTest {

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final PhaseMeters meters = new PhaseMeters(registry, KafkaMeterTags.DEFAULT);

  @Test
  void aPhaseTimerRegisteredWhileTheRequestIsBuiltIsNotWrittenWithoutItsBuckets() {
    var broker2 = new MeteredPhaseRecorder(meters, ClientType.PRODUCER, "p", "2", null);
    broker2.record((short) 0, 500_000, 20_000_000, 2_000_000, 3_000_000, 100_000);
    // What a client's first request to another broker registers between the exporter's look at
    // the phase timers and its walk over the registry: a timer the registry has, the look did not.
    FunctionTimer.builder(
            KafkaMeters.REQUEST_PHASE.name(),
            new long[] {1},
            c -> c[0],
            c -> 538_000_000L,
            TimeUnit.NANOSECONDS)
        .tags(Tags.of("client.type", "consumer", "node.id", "3", "api", "fetch", "phase", "queue"))
        .register(registry);

    for (OtlpHistograms histograms : OtlpHistograms.values()) {
      String body = OtlpJson.request(registry, meters, Map.of(), histograms, 0, 1);

      String bucketed =
          histograms == OtlpHistograms.EXPONENTIAL ? "exponentialHistogram" : "histogram";
      // 5 phases and the gap of broker 2, each with its buckets; nothing of node 3 yet.
      assertThat(count(body, "\"name\":\"faultline.kafka.request.(phase|gap)\""))
          .as("%s: %s", histograms, body)
          .isEqualTo(6);
      assertThat(count(body, "\"" + bucketed + "\":")).as("%s: %s", histograms, body).isEqualTo(6);
      assertThat(body).doesNotContain("\"stringValue\":\"3\"");
    }
  }

  private static long count(String text, String regex) {
    return Pattern.compile(regex).matcher(text).results().count();
  }
}
