package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SoakChecksTest {

  private static Soak.Run faultFree(Duration total) {
    return faultFree(total, t -> 1600);
  }

  /** A fault-free run whose exported series at {@code t} seconds are {@code series(t)}. */
  private static Soak.Run faultFree(Duration total, java.util.function.IntUnaryOperator series) {
    List<SoakSample> samples = new ArrayList<>();
    for (int t = 10; t <= total.toSeconds(); t += 10) {
      samples.add(
          new SoakSample(t, 16, 9, 27, 34, series.applyAsInt(t), 6, 2, 10, 900, 900, 300, 0, "-"));
    }
    return new Soak.Run(
        SoakSchedule.of(total, false), false, samples, List.of(), new FindingSpells(), List.of());
  }

  private static double seriesGrowth(Soak.Run run) {
    return SoakChecks.growth(SoakChecks.settled(run), SoakSample.Series.SERIES);
  }

  @Test
  void labelValuesThatFillInLateAndThenStayPassAnHour() {
    // The second fault-free hour: up 60 at minutes 19-21, then within 10.
    Soak.Run run =
        faultFree(
            Duration.ofMinutes(60),
            t -> 1477 + (t >= 1140 ? 30 : 0) + (t >= 1260 ? 30 : 0) + (t % 420 == 0 ? 10 : 0));
    assertThat(seriesGrowth(run)).isLessThanOrEqualTo(SoakChecks.SERIES_GROWTH);
    SoakChecks.assertPasses(run);
  }

  @Test
  void aSeriesLeakFailsAnHour() {
    // One series more every 40 s, for the whole hour.
    Soak.Run run = faultFree(Duration.ofMinutes(60), t -> 1500 + t / 40);
    assertThat(seriesGrowth(run)).isGreaterThan(SoakChecks.SERIES_GROWTH);
    assertThatThrownBy(() -> SoakChecks.assertPasses(run))
        .hasMessageContaining("exported series: rise of the last third");
  }

  @Test
  void anHoursSeriesAreJudgedOnlyOnceTheKafkaClientsOwnPeriodsHavePassed() {
    List<SoakSample> settled = SoakChecks.settled(faultFree(Duration.ofMinutes(60)));
    assertThat(settled.get(0).seconds())
        .as("first sample judged, after metadata.max.age.ms and connections.max.idle.ms")
        .isGreaterThan(SoakChecks.KAFKA_CLIENT_PERIODS_SECONDS);
    assertThat(SoakChecks.afterWarmUp(faultFree(Duration.ofMinutes(60))).get(0).seconds())
        .as("the other series, after the 5-minute warm-up")
        .isEqualTo(310);
  }

  @Test
  void aShortCutIsJudgedAfterItsWarmUp() {
    assertThat(SoakChecks.settled(faultFree(Duration.ofSeconds(150))).get(0).seconds())
        .isEqualTo(70);
  }
}
