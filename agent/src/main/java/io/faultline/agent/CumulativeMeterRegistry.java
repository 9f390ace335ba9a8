package io.faultline.agent;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.cumulative.CumulativeCounter;
import io.micrometer.core.instrument.cumulative.CumulativeDistributionSummary;
import io.micrometer.core.instrument.cumulative.CumulativeFunctionCounter;
import io.micrometer.core.instrument.cumulative.CumulativeFunctionTimer;
import io.micrometer.core.instrument.cumulative.CumulativeTimer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.HistogramGauges;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.internal.DefaultGauge;
import io.micrometer.core.instrument.internal.DefaultLongTaskTimer;
import io.micrometer.core.instrument.internal.DefaultMeter;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The agent's own meter registry: what Micrometer's {@code SimpleMeterRegistry} with its default
 * configuration keeps (cumulative meters, seconds, histograms over a one-minute window), without
 * that registry's configuration and its validation, which loaded about seventeen classes into every
 * application's start-up for settings the agent never changes.
 */
final class CumulativeMeterRegistry extends MeterRegistry {

  /** How long a timer's or summary's maximum and percentiles look back: SimpleConfig's step. */
  private static final Duration HISTOGRAM_WINDOW = Duration.ofMinutes(1);

  CumulativeMeterRegistry(Clock clock) {
    super(clock);
  }

  /**
   * A registry on the system clock. Typed as {@link MeterRegistry} so that a caller's class does
   * not name this one where the verifier would load it (and Micrometer's registry with it) before
   * the registry is wanted.
   */
  static MeterRegistry create() {
    return new CumulativeMeterRegistry(Clock.SYSTEM);
  }

  @Override
  protected <T> Gauge newGauge(Meter.Id id, T obj, ToDoubleFunction<T> valueFunction) {
    return new DefaultGauge<>(id, obj, valueFunction);
  }

  @Override
  protected Counter newCounter(Meter.Id id) {
    return new CumulativeCounter(id);
  }

  @Override
  protected Timer newTimer(
      Meter.Id id, DistributionStatisticConfig histogram, PauseDetector pauseDetector) {
    Timer timer =
        new CumulativeTimer(id, clock, histogram, pauseDetector, getBaseTimeUnit(), false);
    HistogramGauges.registerWithCommonFormat(timer, this);
    return timer;
  }

  @Override
  protected DistributionSummary newDistributionSummary(
      Meter.Id id, DistributionStatisticConfig histogram, double scale) {
    DistributionSummary summary =
        new CumulativeDistributionSummary(id, clock, histogram, scale, false);
    HistogramGauges.registerWithCommonFormat(summary, this);
    return summary;
  }

  @Override
  protected LongTaskTimer newLongTaskTimer(Meter.Id id, DistributionStatisticConfig histogram) {
    LongTaskTimer timer = new DefaultLongTaskTimer(id, clock, getBaseTimeUnit(), histogram, false);
    HistogramGauges.registerWithCommonFormat(timer, this);
    return timer;
  }

  @Override
  protected <T> FunctionTimer newFunctionTimer(
      Meter.Id id,
      T obj,
      ToLongFunction<T> countFunction,
      ToDoubleFunction<T> totalTimeFunction,
      TimeUnit totalTimeFunctionUnit) {
    return new CumulativeFunctionTimer<>(
        id, obj, countFunction, totalTimeFunction, totalTimeFunctionUnit, getBaseTimeUnit());
  }

  @Override
  protected <T> FunctionCounter newFunctionCounter(
      Meter.Id id, T obj, ToDoubleFunction<T> countFunction) {
    return new CumulativeFunctionCounter<>(id, obj, countFunction);
  }

  @Override
  protected Meter newMeter(Meter.Id id, Meter.Type type, Iterable<Measurement> measurements) {
    return new DefaultMeter(id, type, measurements);
  }

  @Override
  protected TimeUnit getBaseTimeUnit() {
    return TimeUnit.SECONDS;
  }

  /** Merged by {@link MeterRegistry} into every timer's and summary's configuration. */
  @Override
  protected DistributionStatisticConfig defaultHistogramConfig() {
    return DistributionStatisticConfig.builder()
        .expiry(HISTOGRAM_WINDOW)
        .build()
        .merge(DistributionStatisticConfig.DEFAULT);
  }
}
