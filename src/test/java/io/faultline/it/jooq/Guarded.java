package io.faultline.it.jooq;

import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
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
    Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
    DataSourceConnectionProvider connections = new DataSourceConnectionProvider(dataSource);
    GuardedTransactionProvider provider =
        settings
            .apply(
                GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
                    .findings(findings))
            .build();
    DSLContext dsl =
        DSL.using(
            new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(provider));
    return new Guarded(provider, dsl, findings);
  }

  static String table(String prefix) {
    return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }
}
