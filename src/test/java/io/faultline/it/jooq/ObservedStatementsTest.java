package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Finding;
import io.faultline.core.observe.Observations;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.timeout.StatementTimeoutException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.ConnectionProvider;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DataSourceConnectionProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;
import org.postgresql.PGStatement;

/**
 * A guarded {@code DefaultTransactionProvider}'s statements reach the guard from the transaction's
 * connection rather than through an execute listener, on a real PostgreSQL: the application still
 * gets the driver's connection when it unwraps, the pool gets back the connection it lent, every
 * statement is seen once, with or without the guard's listener on the configuration too, and the
 * application's own JDBC calls on the connection are seen as jOOQ's are.
 */
@ExtendWith(RealServers.class)
class ObservedStatementsTest {

  /** A connection provider that keeps what it lent and what it was given back. */
  private static final class Recording implements ConnectionProvider {
    final ConnectionProvider pool;
    final List<Connection> acquired = new ArrayList<>();
    final List<Connection> released = new ArrayList<>();

    Recording(ConnectionProvider pool) {
      this.pool = pool;
    }

    @Override
    public Connection acquire() {
      Connection c = pool.acquire();
      acquired.add(c);
      return c;
    }

    @Override
    public void release(Connection connection) {
      released.add(connection);
      pool.release(connection);
    }
  }

  private static String table(PostgresServer postgres) throws SQLException {
    String table = Guarded.table("observed");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, 100)");
    }
    return table;
  }

  @Test
  void theApplicationUnwrapsTheDriverConnectionAndThePoolGetsBackWhatItLent(PostgresServer postgres)
      throws SQLException {
    String table = table(postgres);
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(2))) {
      Recording recording = new Recording(new DataSourceConnectionProvider(pool));
      Guarded setup = Guarded.on(recording, false, b -> b.statementTimeout(Duration.ofSeconds(5)));
      List<Object> unwrapped = new ArrayList<>();

      setup.dsl.transaction(
          c ->
              c.dsl()
                  .connection(connection -> unwrapped.add(connection.unwrap(PGConnection.class))));
      // Rolled back from inside, and a nested level committed and one rolled back.
      assertThatThrownBy(
              () ->
                  setup.dsl.transaction(
                      c -> {
                        c.dsl().execute("UPDATE " + table + " SET balance = 1 WHERE id = 1");
                        throw new IllegalStateException("roll back");
                      }))
          .isInstanceOf(IllegalStateException.class);
      setup.dsl.transaction(
          outer -> {
            outer.dsl().transaction(inner -> inner.dsl().fetch("SELECT 1"));
            try {
              outer
                  .dsl()
                  .transaction(
                      inner -> {
                        inner.dsl().execute("UPDATE " + table + " SET balance = 2 WHERE id = 1");
                        throw new IllegalStateException("roll back the savepoint");
                      });
            } catch (IllegalStateException expected) {
              // the outer level goes on
            }
          });

      assertThat(unwrapped).hasSize(1).allSatisfy(c -> assertThat(c).isNotNull());
      assertThat(recording.acquired).hasSize(3);
      assertThat(recording.released).containsExactlyElementsOf(recording.acquired);
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
      assertThat(setup.dsl.fetchValue("SELECT balance FROM " + table + " WHERE id = 1"))
          .isEqualTo(100);
      assertThat(setup.provider.guard().internalErrors()).isZero();
    }
  }

  @Test
  void aDefaultProvidersTransactionGetsNoListenerAndStillCountsEachStatementOnce(
      PostgresServer postgres) throws SQLException {
    for (boolean listenerToo : new boolean[] {false, true}) {
      String table = table(postgres);
      Guarded setup =
          Guarded.on(
              new DataSourceConnectionProvider(postgres.dataSource()),
              listenerToo,
              b -> b.nesting(NestingPolicy.WARN));
      List<Map<String, Object>> transactions = new CopyOnWriteArrayList<>();
      List<Integer> listenersInside = new ArrayList<>();
      Runnable unsubscribe =
          Observations.subscribe(
              (kind, values) -> {
                if (Observations.TRANSACTION.equals(kind)) {
                  transactions.add(values);
                }
              });
      try {
        setup.dsl.transaction(
            outer -> {
              listenersInside.add(outer.executeListenerProviders().length);
              outer.dsl().fetch("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
              outer
                  .dsl()
                  .transaction(
                      inner ->
                          inner
                              .dsl()
                              .execute("UPDATE " + table + " SET balance = 90 WHERE id = 1"));
              outer.dsl().fetch("SELECT balance FROM " + table);
            });
      } finally {
        unsubscribe.run();
      }

      assertThat(listenersInside)
          .as("listener too: %s", listenerToo)
          .containsExactly(listenerToo ? 1 : 0);
      assertThat(transactions).hasSize(1);
      assertThat(transactions.get(0)).containsEntry("statements", 3L);
      assertThat(setup.findings.active())
          .extracting(Finding::id)
          .contains(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id());
      assertThat(setup.provider.guard().internalErrors()).isZero();
    }
  }

  @Test
  void aStatementTimeoutSeenOnTheConnectionIsTheGuardsExceptionAndKeepsNoLiterals(
      PostgresServer postgres) throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded setup =
          Guarded.on(
              new DataSourceConnectionProvider(pool),
              false,
              b -> b.statementTimeout(Duration.ofMillis(200)));

      assertThatThrownBy(
              () -> setup.dsl.transaction(c -> c.dsl().execute("SELECT pg_sleep(5), 'secret'")))
          .isInstanceOf(StatementTimeoutException.class)
          .isInstanceOf(DataAccessException.class)
          .satisfies(
              e -> {
                assertThat(e.getMessage()).doesNotContain("secret");
                assertThat(((DataAccessException) e).sqlState()).isEqualTo("57014");
                assertThat(e.getCause()).isInstanceOf(SQLException.class);
                // Made where the connection saw the failure, not by the listener.
                assertThat(Arrays.toString(e.getStackTrace()))
                    .contains("io.faultline.jooq.StatementHooks.run")
                    .doesNotContain("GuardExecuteListener");
              });
      assertThat(setup.provider.guard().stats().statementTimeouts()).isEqualTo(1);
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    }
  }

  @Test
  void theApplicationsOwnJdbcCallsInTheTransactionAreSeenCallableOnesIncluded(
      PostgresServer postgres) throws SQLException {
    String procedure = Guarded.table("slow_call");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE PROCEDURE "
              + procedure
              + "(seconds float8) LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(seconds); END $$");
    }
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded setup =
          Guarded.on(
              new DataSourceConnectionProvider(pool),
              false,
              b -> b.statementTimeout(Duration.ofMillis(300)));
      List<Map<String, Object>> transactions = new CopyOnWriteArrayList<>();
      Runnable unsubscribe =
          Observations.subscribe(
              (kind, values) -> {
                if (Observations.TRANSACTION.equals(kind)) {
                  transactions.add(values);
                }
              });
      try {
        setup.dsl.transaction(
            c ->
                c.dsl()
                    .connection(
                        connection -> {
                          try (CallableStatement call =
                                  connection.prepareCall("CALL " + procedure + "(0)");
                              PreparedStatement select = connection.prepareStatement("SELECT 1")) {
                            call.execute();
                            select.executeQuery().close();
                            assertThat(call.getConnection()).isSameAs(connection);
                            assertThat(call.isWrapperFor(PGStatement.class)).isTrue();
                          }
                        }));
        assertThatThrownBy(
                () ->
                    setup.dsl.transaction(
                        c ->
                            c.dsl()
                                .connection(
                                    connection -> {
                                      try (CallableStatement call =
                                          connection.prepareCall("CALL " + procedure + "(5)")) {
                                        call.execute();
                                      }
                                    })))
            .isInstanceOf(StatementTimeoutException.class)
            .hasMessageContaining("CALL " + procedure);
      } finally {
        unsubscribe.run();
      }

      assertThat(transactions).extracting(t -> t.get("statements")).containsExactly(2L, 1L);
      assertThat(setup.provider.guard().stats().statementTimeouts()).isEqualTo(1);
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    }
  }
}
