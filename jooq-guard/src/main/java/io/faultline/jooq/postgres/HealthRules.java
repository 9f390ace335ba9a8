package io.faultline.jooq.postgres;

import io.faultline.core.finding.Finding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The findings one {@link HealthSample} shows: {@code PG_MULTIXACT_SLRU_THRASH} when the MultiXact
 * member SLRU's hit ratio over the interval is below the threshold over enough accesses to mean
 * something, {@code PG_LONG_TRANSACTION} when another session's transaction is older than the
 * limit. Stateless: the deltas are the sample's.
 */
final class HealthRules {

  private HealthRules() {}

  /**
   * @param sample one poll
   * @param thrashRatio {@code jooq.health.multixact-hit-ratio}
   * @param minAccesses {@code jooq.health.multixact-min-accesses}
   * @param longTransaction the age from which a transaction is long
   * @param target the database, as findings name it
   */
  static List<Finding> findings(
      HealthSample sample,
      double thrashRatio,
      long minAccesses,
      Duration longTransaction,
      String target) {
    List<Finding> current = new ArrayList<>();
    Double memberRatio = sample.hitRatios().get(SlruNames.MULTIXACT_MEMBER);
    long memberAccesses = sample.accesses().getOrDefault(SlruNames.MULTIXACT_MEMBER, 0L);
    if (memberRatio != null && memberAccesses >= minAccesses && memberRatio < thrashRatio) {
      current.add(
          Finding.of(HealthFindingTypes.MULTIXACT_SLRU_THRASH, target)
              .message(
                  String.format(
                      java.util.Locale.ROOT,
                      "MultiXact member SLRU hit ratio %.3f over the last %d accesses (threshold"
                          + " %.2f)",
                      memberRatio,
                      memberAccesses,
                      thrashRatio))
              .evidence("hitRatio", memberRatio)
              .evidence("accesses", memberAccesses)
              .evidence("multixactAge", sample.multixactAge())
              .build());
    }
    if (sample.oldestPid() != 0
        && sample.oldestTransactionSeconds() * 1000 >= longTransaction.toMillis()) {
      current.add(
          Finding.of(HealthFindingTypes.LONG_TRANSACTION, target)
              .message(
                  String.format(
                      java.util.Locale.ROOT,
                      "transaction of pid %d (%s) open for %.0f s",
                      sample.oldestPid(),
                      sample.oldestApplication().isEmpty()
                          ? "no application_name"
                          : sample.oldestApplication(),
                      sample.oldestTransactionSeconds()))
              .evidence("pid", sample.oldestPid())
              .evidence("applicationName", sample.oldestApplication())
              .evidence("ageSeconds", Math.round(sample.oldestTransactionSeconds()))
              .build());
    }
    return current;
  }
}
