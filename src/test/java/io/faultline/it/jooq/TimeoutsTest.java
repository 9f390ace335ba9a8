package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import io.faultline.jooq.timeout.StatementTimeoutException;
import io.faultline.jooq.timeout.TimeoutOverride;
import io.faultline.jooq.timeout.TransactionTimeoutException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Statement timeouts and transaction deadlines on a real PostgreSQL through a HikariCP pool. */
@ExtendWith(RealServers.class)
class TimeoutsTest {

  private static int selectOne(HikariDataSource pool) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1")) {
      rs.next();
      assertThat(c.getAutoCommit()).isTrue();
      return rs.getInt(1);
    }
  }

  @Test
  void aLongStatementIsCancelledByTheStatementTimeoutAndTheConnectionIsFineAfter(
      PostgresServer postgres) throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded guarded = Guarded.on(pool, b -> b.statementTimeout(Duration.ofSeconds(1)));
      long start = System.nanoTime();

      assertThatThrownBy(
              () -> guarded.dsl.transaction(c -> DSL.using(c).execute("SELECT pg_sleep(30)")))
          .isInstanceOf(StatementTimeoutException.class)
          .hasMessageContaining("statement_timeout of 1000 ms")
          .hasMessageContaining("SELECT pg_sleep(?)");

      long millis = (System.nanoTime() - start) / 1_000_000;
      System.out.println(
          "[faultline-it] timeouts: pg_sleep(30) under a 1 s statement timeout failed after "
              + millis
              + " ms with StatementTimeoutException; stats "
              + guarded.provider.guard().stats());
      assertThat(millis).isLessThan(10_000);
      assertThat(selectOne(pool)).isEqualTo(1);
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
      assertThat(guarded.provider.guard().stats().statementTimeouts()).isEqualTo(1);
      assertThat(guarded.provider.guard().stats().failed()).isZero();
      assertThat(guarded.provider.guard().stats().rolledBack()).isEqualTo(1);
    }
  }

  @Test
  void aDeadlineFiresOnATransactionOfManyShortStatements(PostgresServer postgres)
      throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded guarded = Guarded.on(pool, b -> b.transactionTimeout(Duration.ofMillis(800)));
      int[] statements = {0};
      long start = System.nanoTime();

      assertThatThrownBy(
              () ->
                  guarded.dsl.transaction(
                      c -> {
                        for (int i = 0; i < 1000; i++) {
                          DSL.using(c).execute("SELECT pg_sleep(0.02)");
                          statements[0]++;
                        }
                      }))
          .isInstanceOf(TransactionTimeoutException.class)
          .hasMessageContaining("deadline of 800 ms");

      long millis = (System.nanoTime() - start) / 1_000_000;
      System.out.println(
          "[faultline-it] timeouts: an 800 ms deadline stopped a transaction of 20 ms statements"
              + " after "
              + statements[0]
              + " statements, "
              + millis
              + " ms; stats "
              + guarded.provider.guard().stats());
      assertThat(statements[0]).isBetween(5, 999);
      assertThat(selectOne(pool)).isEqualTo(1);
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
      assertThat(guarded.provider.guard().stats().transactionTimeouts()).isEqualTo(1);
    }
  }

  @Test
  void aDeadlineCancelsTheStatementThatIsRunning(PostgresServer postgres) throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded guarded = Guarded.on(pool, b -> b.transactionTimeout(Duration.ofSeconds(1)));
      long start = System.nanoTime();
      assertThatThrownBy(
              () -> guarded.dsl.transaction(c -> DSL.using(c).execute("SELECT pg_sleep(30)")))
          .isInstanceOf(TransactionTimeoutException.class);
      long millis = (System.nanoTime() - start) / 1_000_000;
      System.out.println(
          "[faultline-it] timeouts: a 1 s deadline cancelled pg_sleep(30) after " + millis + " ms");
      assertThat(millis).isLessThan(10_000);
      assertThat(selectOne(pool)).isEqualTo(1);
    }
  }

  @Test
  void aPerTransactionOverrideIsLocalToThatTransaction(PostgresServer postgres)
      throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded guarded = Guarded.on(pool, b -> b.statementTimeout(Duration.ofSeconds(5)));
      String inside =
          DSL.using(
                  TimeoutOverride.statementTimeout(Duration.ofSeconds(30))
                      .applyTo(guarded.dsl.configuration()))
              .transactionResult(
                  c -> DSL.using(c).fetchOne("SHOW statement_timeout").get(0, String.class));
      String after =
          guarded.dsl.transactionResult(
              c -> DSL.using(c).fetchOne("SHOW statement_timeout").get(0, String.class));
      assertThat(inside).isEqualTo("30s");
      assertThat(after).isEqualTo("5s");
    }
  }

  @Test
  void aTimeoutSetInATransactionThatRolledBackIsSetAgain(PostgresServer postgres)
      throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded guarded = Guarded.on(pool, b -> b.statementTimeout(Duration.ofSeconds(5)));
      // The first transaction on the connection carries the SET, and the server undoes it.
      assertThatThrownBy(
              () ->
                  guarded.dsl.transaction(
                      c -> {
                        DSL.using(c).fetch("SELECT 1");
                        throw new IllegalStateException("the application rolls back");
                      }))
          .hasMessageContaining("the application rolls back");
      String after =
          guarded.dsl.transactionResult(
              c -> DSL.using(c).fetchOne("SHOW statement_timeout").get(0, String.class));
      assertThat(after).isEqualTo("5s");
    }
  }

  @Test
  @RequiresDocker("pg_stat_statements is preloaded in the project's image")
  void inSteadyStateTheTimeoutCostsNoRoundTrip(PostgresServer postgres) throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(2));
        Connection admin = postgres.connect();
        Statement s = admin.createStatement()) {
      s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      s.execute("SELECT pg_stat_statements_reset()");
      Guarded guarded = Guarded.on(pool, b -> b.statementTimeout(Duration.ofMillis(4321)));
      for (int i = 0; i < 300; i++) {
        guarded.dsl.transaction(c -> DSL.using(c).fetch("SELECT 1"));
      }
      long sets;
      try (ResultSet rs =
          s.executeQuery(
              "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements"
                  + " WHERE query ILIKE '%statement_timeout%' AND query NOT ILIKE '%pg_stat%'")) {
        rs.next();
        sets = rs.getLong(1);
      }
      System.out.println(
          "[faultline-it] timeouts: 300 guarded transactions on a pool of 2 sent SET"
              + " statement_timeout "
              + sets
              + " times");
      assertThat(sets).isBetween(1L, 2L);
    }
  }
}
