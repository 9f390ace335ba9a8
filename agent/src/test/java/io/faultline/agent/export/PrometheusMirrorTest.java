package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The mirror writes the agent's meters as Micrometer's Prometheus registry writes them: the same
 * meters recorded the same way, once into a Prometheus registry directly and once into a simple
 * registry the mirror reads, scrape to the same text.
 */
class PrometheusMirrorTest {

  private final AtomicLong state = new AtomicLong(42);

  @Test
  void everyKindTheAgentRegistersScrapesAsTheRegistryWritesIt() {
    PrometheusMeterRegistry direct = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    registerAndRecord(direct);
    registerAndRecord(own);

    PrometheusMeterRegistry mirror = PrometheusMirror.of(own).registry();

    assertThat(direct.scrape())
        .contains("faultline_test_things_bytes_total{node_id=\"1\"} 5.0")
        .contains("faultline_test_delay_seconds_max{client_type=\"consumer\"} 0.75")
        .contains("faultline_test_depth_levels_count{pool=\"q\"} 1")
        .contains("faultline_test_build_info{version=\"x\"} 1");
    assertThat(mirror.scrape()).isEqualTo(direct.scrape());
  }

  @Test
  void countsMadeBeforeTheMirrorAreKeptAndLaterOnesFollow() {
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    Counter early = Counter.builder("faultline.test.reconnects").register(own);
    early.increment(3);

    PrometheusMeterRegistry mirror = PrometheusMirror.of(own).registry();
    early.increment();

    assertThat(mirror.scrape()).contains("faultline_test_reconnects_total 4.0");
  }

  @Test
  void metersAddedAfterTheMirrorAreWrittenAndRemovedOnesAreNot() {
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    PrometheusMeterRegistry mirror = PrometheusMirror.of(own).registry();

    Counter later = Counter.builder("faultline.test.later").tag("client", "a").register(own);
    DistributionSummary depth =
        DistributionSummary.builder("faultline.test.depth").baseUnit("levels").register(own);
    later.increment();
    depth.record(2);
    assertThat(mirror.scrape())
        .contains("faultline_test_later_total{client=\"a\"} 1.0")
        .contains("faultline_test_depth_levels_count 1")
        .contains("faultline_test_depth_levels_max 2.0");

    own.remove(later);
    own.remove(depth);
    assertThat(mirror.scrape()).doesNotContain("faultline_test_later").doesNotContain("depth");
  }

  @Test
  void aMeterRegisteredWhileTheMirrorIsBuiltIsWrittenFromTheNextCatchUp() {
    // Micrometer calls its listeners before the new meter is in its list: a mirror built from a
    // listener of that meter (the moment a scrape thread can hit by chance) sees it in neither.
    SimpleMeterRegistry own = new SimpleMeterRegistry();
    AtomicReference<PrometheusMirror> built = new AtomicReference<>();
    own.config()
        .onMeterAdded(
            m -> {
              if (m.getId().getName().equals("faultline.test.raced")) {
                built.compareAndSet(null, PrometheusMirror.of(own));
              }
            });
    Counter raced = Counter.builder("faultline.test.raced").register(own);
    raced.increment(2);
    PrometheusMirror mirror = built.get();
    assertThat(mirror.registry().scrape())
        .as("the race itself, without catching up")
        .doesNotContain("faultline_test_raced");

    mirror.catchUp();

    assertThat(mirror.registry().scrape()).contains("faultline_test_raced_total 2.0");
  }

  @Test
  void aGaugeRegisteredAgainWhileACatchUpRunsIsWrittenWithItsNewState() {
    // A listener that closes and opens again: its gauge is removed and a new one, over new state,
    // registered under the same id. A catch-up that read the list before the removal mirrors the
    // old gauge again, and the new one arrives before it checks that the old one is still there
    // (here: from inside that check, the moment another thread can hit). Micrometer's meters are
    // equal by id, so the old gauge passed for registered and its frozen value was written for
    // good.
    AtomicLong closedQueue = new AtomicLong(9);
    AtomicLong openedQueue = new AtomicLong(0);
    List<Meter> readBeforeTheRemoval = new ArrayList<>();
    AtomicBoolean openOnNextRead = new AtomicBoolean();
    SimpleMeterRegistry own =
        new SimpleMeterRegistry() {
          @Override
          public List<Meter> getMeters() {
            if (!readBeforeTheRemoval.isEmpty()) {
              List<Meter> stale = List.copyOf(readBeforeTheRemoval);
              readBeforeTheRemoval.clear();
              openOnNextRead.set(true);
              return stale;
            }
            if (openOnNextRead.compareAndSet(true, false)) {
              Gauge.builder("faultline.test.queue", openedQueue, AtomicLong::get)
                  .tag("port", "9092")
                  .register(this);
            }
            return super.getMeters();
          }
        };
    Gauge closed =
        Gauge.builder("faultline.test.queue", closedQueue, AtomicLong::get)
            .tag("port", "9092")
            .register(own);
    PrometheusMirror mirror = PrometheusMirror.of(own);
    readBeforeTheRemoval.addAll(own.getMeters());
    own.remove(closed);

    mirror.catchUp();
    mirror.catchUp();

    assertThat(own.find("faultline.test.queue").gauge().value())
        .as("the gauge the source has now")
        .isZero();
    assertThat(mirror.registry().scrape())
        .contains("faultline_test_queue{port=\"9092\"} 0.0")
        .doesNotContain("9.0");
  }

  private void registerAndRecord(MeterRegistry registry) {
    Counter.builder("faultline.test.things")
        .description("Things.")
        .baseUnit("bytes")
        .tag("node_id", "1")
        .register(registry)
        .increment(5);
    Counter.builder("faultline.test.plain").register(registry).increment();
    FunctionCounter.builder("faultline.test.function.counted", state, AtomicLong::get)
        .description("Counted by a function.")
        .register(registry);
    Gauge.builder("faultline.test.level", state, s -> s.get() / 2.0)
        .description("A level.")
        .tag("client_type", "producer")
        .register(registry);
    Gauge.builder("faultline.test.build.info", () -> 1).tag("version", "x").register(registry);
    TimeGauge.builder("faultline.test.age", state, TimeUnit.MILLISECONDS, AtomicLong::get)
        .description("An age.")
        .register(registry);
    FunctionTimer.builder(
            "faultline.test.function.timed",
            state,
            AtomicLong::get,
            s -> s.get() * 1000.0,
            TimeUnit.MILLISECONDS)
        .description("Timed by a function.")
        .register(registry);
    Timer delay =
        Timer.builder("faultline.test.delay")
            .description("A delay.")
            .tag("client_type", "consumer")
            .register(registry);
    delay.record(Duration.ofMillis(250));
    delay.record(Duration.ofMillis(750));
    DistributionSummary depth =
        DistributionSummary.builder("faultline.test.depth")
            .description("A depth.")
            .baseUnit("levels")
            .tag("pool", "p")
            .register(registry);
    depth.record(1);
    depth.record(3);
    DistributionSummary.builder("faultline.test.depth")
        .description("A depth.")
        .baseUnit("levels")
        .tag("pool", "q")
        .register(registry)
        .record(2);
  }
}
