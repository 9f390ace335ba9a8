package io.faultline.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.postgres.HealthFindingTypes;
import io.faultline.jooq.postgres.PostgresHealthMetrics;
import io.faultline.testcontainers.HeldTransaction;
import io.faultline.testcontainers.PostgresFaults;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link PostgresFaults} on the real PostgreSQL: each fault is what the server shows (an open
 * transaction with an id, a lock another transaction runs into, one subtransaction id per
 * savepoint), and closing it releases everything.
 */
@ExtendWith(RealServers.class)
class PostgresFaultsTest {

  private static PostgresFaults faults(PostgresServer postgres) {
    return PostgresFaults.on(postgres.jdbcUrl(), postgres.username(), postgres.password());
  }

  private static int queryInt(PostgresServer postgres, String sql) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static int backends(PostgresServer postgres, HeldTransaction fault) throws SQLException {
    return queryInt(
        postgres,
        "SELECT count(*) FROM pg_stat_activity WHERE pid = "
            + fault.pid()
            + " AND application_name = '"
            + PostgresFaults.APPLICATION_NAME
            + "'");
  }

  @Test
  void aLongTransactionHoldsATransactionIdOpenUntilClosed(PostgresServer postgres)
      throws Exception {
    try (PostgresFaults faults = faults(postgres)) {
      HeldTransaction fault = faults.longTransaction();

      assertThat(
              queryInt(
                  postgres,
                  "SELECT count(*) FROM pg_stat_activity WHERE pid = "
                      + fault.pid()
                      + " AND state = 'idle in transaction' AND backend_xid IS NOT NULL"))
          .isEqualTo(1);

      // Faultline's health check names it, once it is older than the threshold.
      Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
      try (PostgresHealthMetrics health =
          PostgresHealthMetrics.builder(
                  postgres.jdbcUrl(), postgres.username(), postgres.password())
              .interval(Duration.ofHours(1))
              .longTransaction(Duration.ofSeconds(1))
              .findings(findings)
              .build()) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (longTransactions(findings, fault).isEmpty() && System.nanoTime() < deadline) {
          health.pollNow();
          Thread.sleep(100);
        }
      }
      assertThat(longTransactions(findings, fault)).hasSize(1);

      fault.close();
      assertThat(fault.isHeld()).isFalse();
      awaitGone(postgres, fault);
    }
  }

  private static List<Finding> longTransactions(Findings findings, HeldTransaction fault) {
    return findings.active().stream()
        .filter(f -> f.id().equals(HealthFindingTypes.LONG_TRANSACTION.id()))
        .filter(f -> String.valueOf(f.evidence().get("pid")).equals(String.valueOf(fault.pid())))
        .toList();
  }

  /** A closed fault's backend leaves pg_stat_activity once the server has ended it. */
  private static void awaitGone(PostgresServer postgres, HeldTransaction fault)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (backends(postgres, fault) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(backends(postgres, fault)).as("backends of " + fault).isZero();
  }

  @Test
  void aHotRowMakesAnotherTransactionWaitForItsLock(PostgresServer postgres) throws SQLException {
    String table = "hot_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, 100), (2, 100)");
    }
    try (PostgresFaults faults = faults(postgres)) {
      faults.hotRow(table, "id = 1");

      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("SET lock_timeout = '200ms'");
        assertThatThrownBy(
                () -> s.executeUpdate("UPDATE " + table + " SET balance = 0 WHERE id = 1"))
            .isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55P03"));
        // Only the hot row: its neighbour is free.
        assertThat(s.executeUpdate("UPDATE " + table + " SET balance = 0 WHERE id = 2")).isOne();
      }
    }
    // Closed with the PostgresFaults: the row is free again.
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("SET lock_timeout = '2s'");
      assertThat(s.executeUpdate("UPDATE " + table + " SET balance = 0 WHERE id = 1")).isOne();
    }
  }

  @Test
  void aHotRowThatMatchesNothingIsRefused(PostgresServer postgres) throws SQLException {
    String table = "cold_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY)");
    }
    try (PostgresFaults faults = faults(postgres)) {
      assertThatThrownBy(() -> faults.hotRow(table, "id = 1"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("no row of " + table + " matches id = 1");
    }
  }

  @Test
  void subtransactionsGiveOneBackendOneTransactionIdPerSavepoint(PostgresServer postgres)
      throws Exception {
    try (PostgresFaults faults = faults(postgres)) {
      HeldTransaction fault = faults.subtransactions(100);

      // Each transaction id, the top one's and each subtransaction's, is locked by its backend.
      assertThat(
              queryInt(
                  postgres,
                  "SELECT count(*) FROM pg_locks WHERE pid = "
                      + fault.pid()
                      + " AND locktype = 'transactionid'"))
          .isEqualTo(101);
      faults.close();
      awaitGone(postgres, fault);
    }
  }
}
