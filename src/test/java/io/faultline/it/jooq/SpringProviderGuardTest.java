package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.it.servers.MultiXactProbe;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.GuardStats;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestedTransactionException;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.timeout.StatementTimeoutException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.jooq.SpringTransactionProvider;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

/**
 * The library flavour on Spring Boot's {@link SpringTransactionProvider} (Boot 3), wired as Boot's
 * jOOQ auto-configuration wires it ({@code DataSourceTransactionManager}, connections through a
 * {@code TransactionAwareDataSourceProxy}) and wrapped with {@link GuardedTransactionProvider}:
 * Spring's provider begins every {@code dsl.transaction} with {@code PROPAGATION_NESTED}, so the
 * Channel.io PostgreSQL outage's nested update after {@code SELECT ... FOR UPDATE} is a savepoint
 * and a MultiXact, unless the policy flattens or refuses it. Timeouts go through Spring's
 * connection handling too.
 */
@ExtendWith(RealServers.class)
class SpringProviderGuardTest {

  /** A DSLContext as Spring Boot builds it, with Spring's provider wrapped by the guard. */
  private record SpringJooq(
      DSLContext dsl, GuardedTransactionProvider provider, Findings findings) {

    static SpringJooq on(
        HikariDataSource pool, UnaryOperator<GuardedTransactionProvider.Builder> settings) {
      Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
      GuardedTransactionProvider provider =
          settings
              .apply(
                  GuardedTransactionProvider.wrap(
                          new SpringTransactionProvider(new DataSourceTransactionManager(pool)))
                      .findings(findings))
              .build();
      DSLContext dsl =
          DSL.using(
              new DefaultConfiguration()
                  .set(SQLDialect.POSTGRES)
                  .set(new DataSourceConnectionProvider(new TransactionAwareDataSourceProxy(pool)))
                  .set(provider));
      return new SpringJooq(dsl, provider, findings);
    }

    GuardStats stats() {
      return provider.guard().stats();
    }
  }

  @Test
  void warnCountsTheSavepointSpringMakesAndRaisesSavepointAfterRowLock(PostgresServer postgres)
      throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(2))) {
      SpringJooq spring = SpringJooq.on(pool, b -> b.nesting(NestingPolicy.WARN));
      String table = setUp(postgres);

      MultiXactProbe probe = MultiXactProbe.start(postgres);
      lockThenNestedUpdate(spring.dsl(), table);

      List<String> multis = probe.updatingMultiXacts(table);
      report("WARN", multis, balance(postgres, table), spring.stats());
      assertThat(multis).hasSize(1);
      assertThat(balance(postgres, table)).isEqualTo(90);
      assertThat(spring.stats().savepointsCreated()).isEqualTo(1);
      assertThat(spring.stats().savepointsReleased()).isEqualTo(1);
      assertThat(spring.stats().committed()).isEqualTo(1);
      assertThat(spring.findings().active())
          .extracting(Finding::id)
          .contains(
              JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id(),
              JooqFindingTypes.NESTED_TRANSACTION.id());
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    }
  }

  @Test
  void flattenJoinsSpringsTransactionSoThereIsNoMultiXact(PostgresServer postgres)
      throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(2))) {
      SpringJooq spring = SpringJooq.on(pool, b -> b.nesting(NestingPolicy.FLATTEN));
      String table = setUp(postgres);

      MultiXactProbe probe = MultiXactProbe.start(postgres);
      lockThenNestedUpdate(spring.dsl(), table);

      List<String> multis = probe.updatingMultiXacts(table);
      report("FLATTEN", multis, balance(postgres, table), spring.stats());
      assertThat(multis).isEmpty();
      assertThat(balance(postgres, table)).isEqualTo(90);
      assertThat(spring.stats().savepointsCreated()).isZero();
      assertThat(spring.stats().nestedFlattened()).isEqualTo(1);
      assertThat(spring.findings().active()).isEmpty();
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    }
  }

  @Test
  void failRefusesBeforeSpringMakesASavepointAndTheOuterRollsBack(PostgresServer postgres)
      throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(2))) {
      SpringJooq spring = SpringJooq.on(pool, b -> b.nesting(NestingPolicy.FAIL));
      String table = setUp(postgres);

      MultiXactProbe probe = MultiXactProbe.start(postgres);
      assertThatThrownBy(() -> lockThenNestedUpdate(spring.dsl(), table))
          .isInstanceOf(NestedTransactionException.class)
          .hasMessageContaining(SpringProviderGuardTest.class.getName());

      List<String> multis = probe.updatingMultiXacts(table);
      report("FAIL", multis, balance(postgres, table), spring.stats());
      assertThat(multis).isEmpty();
      assertThat(balance(postgres, table)).isEqualTo(100);
      assertThat(spring.stats().savepointsCreated()).isZero();
      assertThat(spring.stats().rolledBack()).isEqualTo(1);
      assertThat(spring.findings().active())
          .extracting(Finding::id)
          .containsExactly(JooqFindingTypes.NESTED_TRANSACTION.id());
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    }
  }

  @Test
  void aStatementTimeoutCancelsThroughSpringsConnectionAndThePoolStaysClean(PostgresServer postgres)
      throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      SpringJooq spring = SpringJooq.on(pool, b -> b.statementTimeout(Duration.ofSeconds(1)));
      long start = System.nanoTime();

      assertThatThrownBy(
              () -> spring.dsl().transaction(c -> DSL.using(c).execute("SELECT pg_sleep(30)")))
          .isInstanceOf(StatementTimeoutException.class)
          .hasMessageContaining("statement_timeout of 1000 ms");

      long millis = (System.nanoTime() - start) / 1_000_000;
      System.out.println(
          "[faultline-it] Spring provider: pg_sleep(30) under a 1 s statement timeout failed after "
              + millis
              + " ms; stats "
              + spring.stats());
      assertThat(millis).isLessThan(10_000);
      Object one = spring.dsl().transactionResult(c -> DSL.using(c).fetchValue("SELECT 1"));
      assertThat(one).isEqualTo(1);
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
      assertThat(spring.stats().statementTimeouts()).isEqualTo(1);
      assertThat(spring.stats().rolledBack()).isEqualTo(1);
      assertThat(spring.stats().committed()).isEqualTo(1);
    }
  }

  /**
   * The Channel.io PostgreSQL outage's flow: lock the row, then update it in a nested transaction.
   */
  private static void lockThenNestedUpdate(DSLContext dsl, String table) {
    dsl.transaction(
        outer -> {
          DSL.using(outer).fetch("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
          DSL.using(outer)
              .transaction(
                  inner ->
                      DSL.using(inner)
                          .execute("UPDATE " + table + " SET balance = balance - 10 WHERE id = 1"));
        });
  }

  private static String setUp(PostgresServer postgres) throws SQLException {
    String table = Guarded.table("spring_account");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, 100)");
    }
    return table;
  }

  private static int balance(PostgresServer postgres, String table) throws SQLException {
    return queryInt(postgres, "SELECT balance FROM " + table + " WHERE id = 1");
  }

  private static int queryInt(PostgresServer postgres, String sql) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static void report(String policy, List<String> multis, int balance, GuardStats stats) {
    System.out.println(
        "[faultline-it] Spring provider, "
            + policy
            + ": MultiXacts of the row's locker and updater: "
            + multis
            + ", balance = "
            + balance
            + "; stats "
            + stats);
  }
}
