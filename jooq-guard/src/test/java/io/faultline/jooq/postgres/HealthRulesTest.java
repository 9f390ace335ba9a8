package io.faultline.jooq.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HealthRulesTest {

  private static final String DB = "jdbc:postgresql://db/app";

  private static HealthSample members(double ratio, long accesses) {
    return new HealthSample(
        Map.of(SlruNames.MULTIXACT_MEMBER, ratio),
        Map.of(SlruNames.MULTIXACT_MEMBER, accesses),
        0,
        0,
        "",
        1_000,
        -1);
  }

  private static List<String> ids(HealthSample sample) {
    return HealthRules.findings(sample, 0.5, 100, Duration.ofMinutes(1), DB).stream()
        .map(Finding::id)
        .toList();
  }

  @Test
  void aMemberHitRatioBelowTheThresholdOverEnoughAccessesIsThrash() {
    List<Finding> found =
        HealthRules.findings(members(0.31, 40_000), 0.5, 100, Duration.ofMinutes(1), DB);
    assertThat(found).extracting(Finding::id).containsExactly("PG_MULTIXACT_SLRU_THRASH");
    assertThat(found.get(0).subject()).isEqualTo(DB);
    assertThat(found.get(0).evidence())
        .containsEntry("hitRatio", 0.31)
        .containsEntry("accesses", 40_000L)
        .containsEntry("multixactAge", 1_000L);
  }

  @Test
  void theThresholdAndTheMinimumAccessesAreBounds() {
    assertThat(ids(members(0.5, 40_000))).as("at the threshold").isEmpty();
    assertThat(ids(members(0.49, 100))).as("at the minimum accesses").isNotEmpty();
    assertThat(ids(members(0.0, 99))).as("too few accesses to mean anything").isEmpty();
    assertThat(ids(new HealthSample(Map.of(), Map.of(), 0, 0, "", -1, -1)))
        .as("the first poll has no ratio")
        .isEmpty();
  }

  @Test
  void anotherSessionsOldTransactionIsLong() {
    HealthSample old = new HealthSample(Map.of(), Map.of(), 61, 4242, "batch", 10, -1);
    List<Finding> found = HealthRules.findings(old, 0.5, 100, Duration.ofMinutes(1), DB);
    assertThat(found).extracting(Finding::id).containsExactly("PG_LONG_TRANSACTION");
    assertThat(found.get(0).evidence()).containsEntry("pid", 4242).containsEntry("ageSeconds", 61L);
    assertThat(ids(new HealthSample(Map.of(), Map.of(), 59, 4242, "batch", 10, -1))).isEmpty();
    assertThat(ids(new HealthSample(Map.of(), Map.of(), 600, 0, "", 10, -1)))
        .as("no pid: no other session")
        .isEmpty();
  }
}
