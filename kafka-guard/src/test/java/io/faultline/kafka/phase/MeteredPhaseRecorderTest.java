package io.faultline.kafka.phase;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.QueuedRegistry;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MeteredPhaseRecorderTest {

  @Test
  void recordsEachPhaseWithBoundedTagsAndTheGap() {
    var registry = new SimpleMeterRegistry();
    var stats = new NodePhaseStats();
    var recorder =
        new MeteredPhaseRecorder(
            new PhaseMeters(registry, KafkaMeterTags.PER_CLIENT),
            ClientType.PRODUCER,
            "orders producer #1 ünïcode",
            "2",
            stats);

    recorder.record((short) 0, 1_000_000, 2_000_000, 3_000_000, 4_000_000, 5_000_000);

    FunctionTimer delivery =
        registry
            .get("faultline.kafka.request.phase")
            .tags("client.type", "producer", "node.id", "2", "api", "produce", "phase", "delivery")
            .functionTimer();
    assertThat(delivery.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3.0);
    assertThat(delivery.getId().getTag("client.id")).isEqualTo("orders_producer__1__n_code");
    FunctionTimer gap =
        registry.get("faultline.kafka.request.gap").tags("api", "produce").functionTimer();
    assertThat(gap.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(1 + 2 + 3 + 5);
    assertThat(
            registry
                .find("faultline.kafka.request.phase")
                .tags("phase", "response_incl_delivery")
                .functionTimer())
        .as("a phase gets its histogram and timer with its first value")
        .isNull();
    assertThat(stats.snapshot()).isEqualTo(new NodePhaseStats.Snapshot(1, 6_000_000, 15_000_000));

    recorder.close();
    assertThat(delivery.totalTime(TimeUnit.MILLISECONDS))
        .as("closing keeps the total: a timer never goes back")
        .isEqualTo(3.0);
  }

  @Test
  void clientsOfOneTypeAndNodeShareOneTimerThatKeepsTheCountsOfClosedOnes() {
    var registry = new SimpleMeterRegistry();
    var meters = new PhaseMeters(registry, KafkaMeterTags.DEFAULT);
    List<MeteredPhaseRecorder> producers = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      var r = new MeteredPhaseRecorder(meters, ClientType.PRODUCER, "producer-" + i, "1", null);
      r.record((short) 0, 1_000, 2_000, 3_000, 4_000, 5_000);
      producers.add(r);
    }
    var consumer = new MeteredPhaseRecorder(meters, ClientType.CONSUMER, "c", "1", null);
    consumer.record((short) 1, 1, 1, 1, 1, 1);

    FunctionTimer queue =
        registry
            .get("faultline.kafka.request.phase")
            .tags("client.type", "producer", "node.id", "1", "api", "produce", "phase", "queue")
            .functionTimer();
    assertThat(queue.count()).isEqualTo(100);
    assertThat(queue.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(100 * 1_000.0);
    assertThat(queue.getId().getTag("client.id")).isNull();
    assertThat(registry.get("faultline.kafka.request.phase").functionTimers())
        .as("the five phases each API used, for the producers and for the consumer")
        .hasSize(10);
    assertThat(meters.timerCount()).as("and a gap for each").isEqualTo(12);

    producers.subList(0, 60).forEach(MeteredPhaseRecorder::close);
    producers.get(99).record((short) 0, 1_000, 2_000, 3_000, 4_000, 5_000);
    assertThat(queue.count()).isEqualTo(101);
    assertThat(queue.totalTime(TimeUnit.NANOSECONDS)).isEqualTo(101 * 1_000.0);
  }

  @Test
  void mergedDeliveryGoesToItsOwnPhaseAndNoResponseRecordsOnlySending() {
    var registry = new SimpleMeterRegistry();
    var recorder =
        new MeteredPhaseRecorder(
            new PhaseMeters(registry, KafkaMeterTags.PER_CLIENT),
            ClientType.CONSUMER,
            null,
            "-1",
            null);

    recorder.record((short) 1, 10, 20, -1, 400, 50);
    recorder.record((short) 1, 10, 20, -1, -1, -1);

    var merged =
        registry
            .get("faultline.kafka.request.phase")
            .tags("api", "fetch", "phase", "response_incl_delivery", "node.id", "bootstrap")
            .functionTimer();
    assertThat(merged.count()).isEqualTo(1);
    assertThat(merged.getId().getTag("client.id")).isEqualTo("none");
    assertThat(
            registry
                .get("faultline.kafka.request.phase")
                .tags("phase", "queue")
                .functionTimer()
                .count())
        .isEqualTo(2);
    assertThat(registry.get("faultline.kafka.request.gap").functionTimer().count()).isEqualTo(1);
  }

  @Test
  void unknownApiIdsGetANumberedName() {
    assertThat(ApiNames.of((short) 250)).isEqualTo("api_250");
    assertThat(ApiNames.of((short) -3)).isEqualTo("api_-3");
    assertThat(ApiNames.of((short) 3)).isEqualTo("metadata");
  }

  @Test
  void requestsBeforeTheRegistryExistsAreInTheTimersRegisteredOnceItDoes() {
    var late = new QueuedRegistry();
    var meters = new PhaseMeters(late, KafkaMeterTags.DEFAULT, PhaseBuckets.defaults());
    var recorder = new MeteredPhaseRecorder(meters, ClientType.PRODUCER, "p", "1", null);
    recorder.record((short) 0, 1_000, 2_000, 3_000, 4_000, 5_000);
    recorder.record((short) 0, 1_000, 2_000, 3_000, 4_000, 5_000);

    var registry = new SimpleMeterRegistry();
    assertThat(registry.getMeters()).isEmpty();
    late.open(registry);

    FunctionTimer queue =
        registry
            .get("faultline.kafka.request.phase")
            .tags("client.type", "producer", "node.id", "1", "api", "produce", "phase", "queue")
            .functionTimer();
    assertThat(queue.count()).as("the histograms counted from the first request").isEqualTo(2);
    recorder.record((short) 0, 1_000, 2_000, 3_000, 4_000, 5_000);
    assertThat(queue.count()).isEqualTo(3);
  }
}
