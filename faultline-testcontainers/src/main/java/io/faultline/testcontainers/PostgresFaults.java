package io.faultline.testcontainers;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Database faults from the Channel.io PostgreSQL outage, on any PostgreSQL a test reaches over JDBC
 * (a Testcontainers {@code PostgreSQLContainer}, an embedded one, a shared test database), for
 * tests of timeouts, pool behaviour and Faultline's health findings:
 *
 * <pre>{@code
 * @AutoClose PostgresFaults faults =
 *     PostgresFaults.on(postgres.getJdbcUrl(), postgres.getUsername(), postgres.getPassword());
 *
 * @Test
 * void paymentTimesOutOnALockedAccount() {
 *   faults.hotRow("account", "id = 1");      // held until the test ends
 *   assertThrows(LockTimeoutException.class, () -> payments.pay(1, 10));
 * }
 * }</pre>
 *
 * <p>Each fault holds a transaction in a backend of its own, named {@code faultline-fault} in
 * {@code pg_stat_activity}, until it is closed; closing this closes every fault it made (JUnit's
 * {@code @AutoClose} does it after each test). Needs the user's PostgreSQL JDBC driver on the class
 * path; no privilege beyond connecting and, for {@link #hotRow}, {@code UPDATE} on the table.
 */
public final class PostgresFaults implements AutoCloseable {

  /** The {@code application_name} of every fault's backend. */
  public static final String APPLICATION_NAME = "faultline-fault";

  private final String jdbcUrl;
  private final String user;
  private final String password;
  private final List<HeldTransaction> held = new ArrayList<>();

  private PostgresFaults(String jdbcUrl, String user, String password) {
    this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    this.user = Objects.requireNonNull(user, "user");
    this.password = Objects.requireNonNull(password, "password");
  }

  /** Faults on the PostgreSQL at {@code jdbcUrl}; nothing connects until a fault is made. */
  public static PostgresFaults on(String jdbcUrl, String user, String password) {
    return new PostgresFaults(jdbcUrl, user, password);
  }

  /**
   * A transaction held open with a transaction id, as a forgotten or stuck one is: it holds back
   * vacuum's horizon for the whole cluster, and Faultline's health metrics report it as {@code
   * PG_LONG_TRANSACTION} once it is older than their threshold.
   */
  public HeldTransaction longTransaction() {
    return hold(
        "long transaction",
        s -> {
          try (ResultSet rs = s.executeQuery("SELECT txid_current()")) {
            rs.next();
          }
        });
  }

  /**
   * Locks the rows of {@code table} matching {@code condition} ({@code SELECT ... FOR UPDATE}) and
   * holds them: every other transaction that writes or locks them waits (or fails on its {@code
   * lock_timeout}) until the fault is closed.
   *
   * @param table the table, as written in SQL
   * @param condition a SQL condition, e.g. {@code id = 1}; the test's own text, run as it is
   * @throws IllegalArgumentException when no row matches
   */
  public HeldTransaction hotRow(String table, String condition) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(condition, "condition");
    return hold(
        "row lock on " + table + " where " + condition,
        s -> {
          int rows = 0;
          try (ResultSet rs =
              s.executeQuery("SELECT 1 FROM " + table + " WHERE " + condition + " FOR UPDATE")) {
            while (rs.next()) {
              rows++;
            }
          }
          if (rows == 0) {
            throw new IllegalArgumentException(
                "hotRow: no row of " + table + " matches " + condition + ", nothing to lock");
          }
        });
  }

  /**
   * One backend whose open transaction has {@code count} subtransactions, each with a transaction
   * id of its own (a savepoint that wrote), as a loop of nested jOOQ transactions leaves it. Above
   * 64 the backend's subtransaction cache overflows, and every other backend's snapshot must look
   * subtransactions up in {@code pg_subtrans} while this transaction stays open.
   *
   * @param count savepoints, at least 1
   */
  public HeldTransaction subtransactions(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("subtransactions: count must be at least 1, was " + count);
    }
    return hold(
        count + " subtransactions in one transaction",
        s -> {
          // A temporary table keeps the writes to this backend and goes with the rollback.
          s.execute("CREATE TEMPORARY TABLE faultline_subtransactions (i int) ON COMMIT DROP");
          for (int i = 1; i <= count; i++) {
            s.execute("SAVEPOINT faultline_" + i);
            s.execute("INSERT INTO faultline_subtransactions VALUES (" + i + ")");
          }
        });
  }

  /** Closes every fault made here and still held. */
  @Override
  public void close() {
    List<HeldTransaction> all;
    synchronized (held) {
      all = new ArrayList<>(held);
    }
    all.forEach(HeldTransaction::close);
  }

  /** What {@link #hold} runs inside the fault's transaction. */
  @FunctionalInterface
  private interface Setup {
    void run(Statement statement) throws SQLException;
  }

  private HeldTransaction hold(String what, Setup setup) {
    Connection connection = null;
    try {
      connection = DriverManager.getConnection(jdbcUrl, user, password);
      int pid;
      try (Statement s = connection.createStatement()) {
        s.execute("SET application_name = '" + APPLICATION_NAME + "'");
        try (ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
          rs.next();
          pid = rs.getInt(1);
        }
        connection.setAutoCommit(false);
        setup.run(s);
      }
      HeldTransaction[] self = new HeldTransaction[1];
      self[0] =
          new HeldTransaction(
              connection,
              pid,
              what + " (backend " + pid + ")",
              () -> {
                synchronized (held) {
                  held.remove(self[0]);
                }
              });
      synchronized (held) {
        held.add(self[0]);
      }
      return self[0];
    } catch (SQLException | RuntimeException e) {
      closeQuietly(connection);
      if (e instanceof IllegalArgumentException iae) {
        throw iae;
      }
      throw new IllegalStateException(
          "cannot hold a " + what + " on " + jdbcUrl + ": " + e.getMessage(), e);
    }
  }

  private static void closeQuietly(Connection connection) {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // Failing already: the first error is the one to report.
      }
    }
  }
}
