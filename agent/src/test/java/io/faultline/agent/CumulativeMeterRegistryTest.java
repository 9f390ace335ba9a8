package io.faultline.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The agent's registry keeps what Micrometer's {@code SimpleMeterRegistry} with its defaults keeps:
 * the same meters, each reading the same after the same recordings on the same clock.
 */
class CumulativeMeterRegistryTest {

  @Test
  void everyKindOfMeterReadsAsInTheDefaultSimpleRegistry() {
    MockClock clock = new MockClock();
    MeterRegistry ours = new CumulativeMeterRegistry(clock);
    MeterRegistry simple = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
    AtomicLong source = new AtomicLong(7);

    for (MeterRegistry registry : List.of(ours, simple)) {
      Counter.builder("c").register(registry).increment(3);
      Timer timer =
          Timer.builder("t")
              .publishPercentiles(0.99)
              .publishPercentileHistogram()
              .register(registry);
      timer.record(Duration.ofMillis(40));
      timer.record(Duration.ofMillis(5));
      DistributionSummary summary =
          DistributionSummary.builder("s").serviceLevelObjectives(10, 100).register(registry);
      summary.record(42);
      Gauge.builder("g", source, AtomicLong::get).register(registry);
      FunctionCounter.builder("fc", source, AtomicLong::get).register(registry);
      FunctionTimer.builder("ft", source, AtomicLong::get, s -> 2.5, TimeUnit.SECONDS)
          .register(registry);
      LongTaskTimer.builder("ltt").register(registry).start();
    }
    clock.add(Duration.ofSeconds(3));
    source.set(11);

    assertThat(readings(ours)).isEqualTo(readings(simple)).hasSize(10);
  }

  @Test
  void aTimersMaximumFadesAsInTheDefaultSimpleRegistry() {
    MockClock clock = new MockClock();
    Timer ours = Timer.builder("t").register(new CumulativeMeterRegistry(clock));
    Timer simple =
        Timer.builder("t").register(new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock));
    ours.record(Duration.ofMillis(900));
    simple.record(Duration.ofMillis(900));

    List<Double> oursMax = new ArrayList<>();
    List<Double> simpleMax = new ArrayList<>();
    for (int seconds = 0; seconds <= 600; seconds += 15) {
      oursMax.add(ours.max(TimeUnit.MILLISECONDS));
      simpleMax.add(simple.max(TimeUnit.MILLISECONDS));
      clock.add(Duration.ofSeconds(15));
    }

    assertThat(oursMax).isEqualTo(simpleMax).startsWith(900.0).endsWith(0.0);
    assertThat(ours.count()).isEqualTo(1);
  }

  /** Each meter's name, tags, type and measurements, sorted. */
  private static List<String> readings(MeterRegistry registry) {
    List<String> lines = new ArrayList<>();
    for (Meter meter : registry.getMeters()) {
      StringBuilder line =
          new StringBuilder(meter.getId().getName())
              .append(meter.getId().getTags())
              .append(' ')
              .append(meter.getId().getType());
      for (Measurement m : meter.measure()) {
        line.append(' ').append(m.getStatistic()).append('=').append(m.getValue());
      }
      lines.add(line.toString());
    }
    lines.sort(null);
    return lines;
  }
}
