package io.faultline.spring.boot;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.JooqConfigKeys;
import io.faultline.jooq.TransactionGuard;
import io.micrometer.core.instrument.MeterRegistry;
import org.jooq.TransactionProvider;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The application's one {@link TransactionGuard} for transactions Spring's transaction managers
 * begin ({@code @Transactional}, {@code TransactionTemplate}), for the statements of Boot's {@code
 * DSLContext} and for the jOOQ {@code TransactionProvider} when there is one: one set of meters,
 * and one ledger per transaction, so a {@code dsl.transaction} inside a {@code @Transactional}
 * method is a nested level of it, counted once. Built on first use, from the {@code faultline.*}
 * properties; or, when the application wired its one provider's guard by hand, that guard.
 */
final class ApplicationGuard {

  /** The meter tag of this guard when several jOOQ providers carry tags of their own. */
  static final String TRANSACTION_MANAGER_TAG = "transaction-manager";

  private final ObjectProvider<FaultlineConfig> config;
  private final ObjectProvider<Findings> findings;
  private final ObjectProvider<MeterRegistry> meterRegistry;
  private final ListableBeanFactory beans;
  private TransactionGuard guard;

  ApplicationGuard(
      ObjectProvider<FaultlineConfig> config,
      ObjectProvider<Findings> findings,
      ObjectProvider<MeterRegistry> meterRegistry,
      ListableBeanFactory beans) {
    this.config = config;
    this.findings = findings;
    this.meterRegistry = meterRegistry;
    this.beans = beans;
  }

  /** Whether {@code faultline.jooq.guard} is on. */
  boolean enabled() {
    return config.getObject().isFeatureEnabled(JooqConfigKeys.GUARD);
  }

  /** Whether the application declares more than one jOOQ {@code TransactionProvider}. */
  boolean severalProviders() {
    return beans.getBeanNamesForType(TransactionProvider.class, true, false).length > 1;
  }

  /**
   * Makes {@code existing}, the guard of a provider the application wired by hand, this one, unless
   * it was already built (then the two count apart, and a warning says so).
   */
  synchronized void adopt(TransactionGuard existing, String providerBean) {
    if (guard == null) {
      guard = existing;
    } else if (guard != existing) {
      System.getLogger(ApplicationGuard.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "faultline: TransactionProvider bean ''{0}'' has a guard of its own, created after"
                  + " the one Spring''s transaction managers report to; the two count apart, and"
                  + " their meters may collide on one registry",
              providerBean);
    }
  }

  /** The guard, built on first use. */
  synchronized TransactionGuard get() {
    if (guard == null) {
      // Spring's managers make a savepoint of every nested level they begin (NESTED), as Boot's
      // SpringTransactionProvider asks them to.
      GuardedTransactionProvider.Builder builder =
          GuardedTransactionProvider.wrap(null).config(config.getObject()).savepoints(true);
      findings.ifAvailable(builder::findings);
      meterRegistry.ifAvailable(builder::meterRegistry);
      if (severalProviders()) {
        // The providers' guards are tagged with their bean names; this one must be told apart.
        builder.tags("provider", TRANSACTION_MANAGER_TAG);
      }
      guard = builder.buildGuard();
    }
    return guard;
  }
}
