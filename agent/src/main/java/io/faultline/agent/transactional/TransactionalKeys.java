package io.faultline.agent.transactional;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigKeyCatalog;
import io.faultline.core.finding.FindingCatalog;
import io.faultline.core.finding.FindingType;
import io.faultline.core.finding.Incident;
import io.faultline.core.finding.Severity;
import java.util.List;

/** The keys and the finding of the agent's nested-{@code @Transactional} detection. */
public final class TransactionalKeys implements ConfigKeyCatalog, FindingCatalog {

  /** The feature: flag annotated transactional methods entered inside one another. */
  public static final String FEATURE = "jooq.transactional";

  /** Its switch. */
  public static final ConfigKey<Boolean> ENABLED =
      ConfigKey.bool(
          FEATURE,
          true,
          FEATURE,
          "Flag @Transactional methods (Spring, jakarta.transaction, javax.transaction and"
              + " jooq.transactional-annotations) entered while another is active on the thread.");

  /** More annotations that mark a transactional method. */
  public static final ConfigKey<String> ANNOTATIONS =
      ConfigKey.string(
          "jooq.transactional-annotations",
          "",
          FEATURE,
          "More annotation classes (fully qualified, comma-separated) that mark a transactional"
              + " method or class, e.g. io.micronaut.transaction.annotation.Transactional.");

  /** One finding per (outer method, inner method) pair. */
  public static final FindingType NESTED_TRANSACTIONAL =
      new FindingType(
          "TX_NESTED_TRANSACTIONAL",
          Severity.WARNING,
          "A @Transactional method is entered while another one is active on the thread",
          "The Channel.io PostgreSQL outage: nested @Transactional service methods ended in nested"
              + " transactions, 40 savepoints in one flow. Depending on the inner annotation's"
              + " propagation Spring joins the outer transaction (REQUIRED), makes a savepoint"
              + " (NESTED, and Spring Boot's jOOQ provider for every dsl.transaction), or opens a"
              + " second connection and transaction (REQUIRES_NEW, which can exhaust the pool).",
          "Keep one transactional boundary per use case: drop @Transactional from the inner"
              + " method or call it outside the outer one. Avoid NESTED after SELECT ... FOR"
              + " UPDATE (MultiXacts) and REQUIRES_NEW inside a pooled transaction.",
          Incident.CHANNEL_IO_POSTGRESQL);

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(ENABLED, ANNOTATIONS);
  }

  @Override
  public List<FindingType> findingTypes() {
    return List.of(NESTED_TRANSACTIONAL);
  }
}
