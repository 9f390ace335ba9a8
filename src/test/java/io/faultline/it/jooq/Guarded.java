package io.faultline.it.jooq;

import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.jooq.Configuration;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultTransactionProvider;

/** A DSLContext on a data source whose transactions go through a guarded default provider. */
final class Guarded {

  final GuardedTransactionProvider provider;
  final DSLContext dsl;
  final Findings findings;

  private Guarded(GuardedTransactionProvider provider, DSLContext dsl, Findings findings) {
    this.provider = provider;
    this.dsl = dsl;
    this.findings = findings;
  }

  static Guarded on(
      DataSource dataSource, UnaryOperator<GuardedTransactionProvider.Builder> settings) {
    return on(new DataSourceConnectionProvider(dataSource), false, settings);
  }

  /**
   * {@code listenerToo}: the guard's execute listener on the configuration as well, as the Spring
   * Boot starter and thread-local users put it there.
   */
  static Guarded on(
      ConnectionProvider connections,
      boolean listenerToo,
      UnaryOperator<GuardedTransactionProvider.Builder> settings) {
    Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
    GuardedTransactionProvider provider =
        settings
            .apply(
                GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
                    .findings(findings))
            .build();
    Configuration configuration =
        new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(provider);
    if (listenerToo) {
      configuration.set(provider.guard().executeListenerProvider());
    }
    return new Guarded(provider, DSL.using(configuration), findings);
  }

  static String table(String prefix) {
    return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }
}
