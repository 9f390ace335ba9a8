package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SoakChecksTest {

  private static Soak.Run faultFree(Duration total) {
    List<SoakSample> samples = new ArrayList<>();
    for (int t = 10; t <= total.toSeconds(); t += 10) {
      samples.add(new SoakSample(t, 16, 9, 27, 34, 1600, 6, 2, 10, 900, 900, 300, 0, "-"));
    }
    return new Soak.Run(
        SoakSchedule.of(total, false), false, samples, List.of(), new FindingSpells(), List.of());
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
