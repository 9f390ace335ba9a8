package io.faultline.jooq.pool;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * Reads {@link ContentionReading}s from {@code pg_stat_activity} over a connection that is not the
 * application pool's, so a pool at its limit cannot starve the monitor and the monitor never takes
 * a connection the application is waiting for. Every query has a short timeout.
 *
 * <p>Given a {@link DataSource} it borrows one connection per reading; given a JDBC URL it keeps
 * one connection (pgjdbc connect and socket timeouts) and reconnects after a failure. Not
 * thread-safe: one monitor thread uses it.
 */
final class ContentionProbe implements AutoCloseable {

  /**
   * Lock waiters and the slowest active statement among the other client sessions of this database.
   * LWLock names differ by version: MultiXact*SLRU / *Buffer and SubtransSLRU (13+),
   * MultiXactMemberControlLock / SubtransControlLock (9.6-12).
   */
  static final String QUERY =
      "SELECT count(*) FILTER (WHERE wait_event_type = 'Lock' OR (wait_event_type = 'LWLock'"
          + " AND (lower(wait_event) LIKE 'multixact%' OR lower(wait_event) LIKE 'subtrans%'))),"
          + " coalesce(max(extract(epoch FROM clock_timestamp() - query_start))"
          + " FILTER (WHERE state = 'active'), 0)"
          + " FROM pg_stat_activity"
          + " WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"
          + " AND datname = current_database()";

  private static final int QUERY_TIMEOUT_SECONDS = 3;

  private final DataSource dataSource;
  private final String jdbcUrl;
  private final Properties properties;
  private final ClassLoader driverLoader;
  private Connection kept;

  private ContentionProbe(
      DataSource dataSource, String jdbcUrl, Properties properties, ClassLoader driverLoader) {
    this.dataSource = dataSource;
    this.jdbcUrl = jdbcUrl;
    this.properties = properties;
    this.driverLoader = driverLoader;
  }

  /** Borrows one connection of {@code monitoring} per reading (not the application's pool). */
  public static ContentionProbe using(DataSource monitoring) {
    return new ContentionProbe(Objects.requireNonNull(monitoring, "monitoring"), null, null, null);
  }

  /**
   * Keeps one connection of its own to {@code jdbcUrl}.
   *
   * @param driverLoader where the JDBC driver is visible (the pool's class loader), or null for
   *     {@link DriverManager}
   */
  public static ContentionProbe connectingTo(
      String jdbcUrl, String user, String password, ClassLoader driverLoader) {
    Properties p = new Properties();
    if (user != null) {
      p.setProperty("user", user);
    }
    if (password != null) {
      p.setProperty("password", password);
    }
    // pgjdbc's own timeouts, in seconds: a stalled server must not hold the monitor.
    p.setProperty("connectTimeout", "5");
    p.setProperty("socketTimeout", "10");
    p.setProperty("ApplicationName", "faultline-pool-feedback");
    return new ContentionProbe(null, Objects.requireNonNull(jdbcUrl, "jdbcUrl"), p, driverLoader);
  }

  /** Reads once; throws when the database cannot be queried. */
  public ContentionReading read() throws SQLException {
    Connection connection = connection();
    try (Statement s = connection.createStatement()) {
      s.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      try (ResultSet rs = s.executeQuery(QUERY)) {
        rs.next();
        return new ContentionReading(rs.getInt(1), rs.getDouble(2));
      }
    } catch (SQLException | RuntimeException e) {
      drop();
      throw e;
    } finally {
      if (dataSource != null) {
        connection.close();
      }
    }
  }

  private Connection connection() throws SQLException {
    if (dataSource != null) {
      return dataSource.getConnection();
    }
    if (kept == null || kept.isClosed()) {
      kept = open();
    }
    return kept;
  }

  private Connection open() throws SQLException {
    if (driverLoader != null && jdbcUrl.startsWith("jdbc:postgresql:")) {
      // DriverManager only hands out drivers its caller's loader can see; an application's
      // driver in a child loader (a Spring Boot jar) is not visible from the agent's.
      try {
        Driver driver =
            (Driver)
                Class.forName("org.postgresql.Driver", true, driverLoader)
                    .getDeclaredConstructor()
                    .newInstance();
        Connection c = driver.connect(jdbcUrl, properties);
        if (c != null) {
          return c;
        }
      } catch (ReflectiveOperationException | LinkageError e) {
        // fall back to DriverManager below
      }
    }
    return DriverManager.getConnection(jdbcUrl, properties);
  }

  private void drop() {
    if (kept != null) {
      try {
        kept.close();
      } catch (SQLException ignored) {
        // reconnect next time
      }
      kept = null;
    }
  }

  /** Closes the kept connection, if any. */
  @Override
  public void close() {
    drop();
  }
}
