package io.faultline.junit;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.observe.Observations;
import io.faultline.jooq.JooqFindingTypes;
import java.time.Clock;
import java.time.Duration;

/**
 * What a guard does when it observes, without a database: findings through a real registry (as a
 * guard with {@code .findings(...)} raises them) and ended transactions as the guard announces
 * them. The real guard on a real PostgreSQL is in the integration suite's {@code
 * FaultlineExtensionIT}.
 */
final class Raise {

  static final Findings REGISTRY =
      new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("faultline-junit-test"));

  private Raise() {}

  static void savepointAfterRowLock(String site) {
    REGISTRY.raise(
        Finding.of(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK, site)
            .message("a savepoint is begun at " + site + " after the transaction locked rows")
            .build());
  }

  static void nested(String site) {
    REGISTRY.raise(Finding.of(JooqFindingTypes.NESTED_TRANSACTION, site).build());
  }

  static void transaction(String site, int savepoints, int depth, long statements) {
    Observations.transaction(site, savepoints, depth, statements, true);
  }
}
