package io.faultline.it.servers;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.function.Consumer;
import javax.sql.DataSource;

/** A running PostgreSQL server with superuser access. */
public interface PostgresServer extends AutoCloseable {

  /** The JDBC URL of the test database. */
  String jdbcUrl();

  /**
   * The JDBC URL of the test database at the server's own address, where it has one apart from
   * {@link #jdbcUrl()}: a container's, so a benchmark's connections do not pass through Docker's
   * userland proxy of the published port (a third of a core under a busy pool, shared with what is
   * measured). Otherwise {@link #jdbcUrl()}.
   */
  default String directJdbcUrl() {
    return jdbcUrl();
  }

  /** The superuser's name. */
  String username();

  /** The superuser's password. */
  String password();

  /** The server's major version, e.g. 15. */
  int majorVersion();

  /** A shared HikariCP pool on the test database (do not close it). */
  DataSource dataSource();

  /** A new pool of the caller's own (the caller closes it), configured by {@code settings}. */
  default HikariDataSource newPool(Consumer<HikariConfig> settings) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl());
    config.setUsername(username());
    config.setPassword(password());
    config.setMaximumPoolSize(4);
    settings.accept(config);
    return new HikariDataSource(config);
  }

  /** A plain connection outside any pool (the caller closes it). */
  default Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), username(), password());
  }

  /**
   * Kills one server process (a backend's {@code pid}, as {@code pg_backend_pid()} names it) with
   * SIGKILL, as a crash would: the postmaster then ends every other session, recovers from the
   * write-ahead log and accepts connections again at the same address (a restart of every backend,
   * without the container or the port going away).
   */
  void killBackend(int pid);

  /**
   * Stops the server cleanly, as {@code pg_ctl stop -m fast} does (every session ended, a
   * checkpoint written), keeps it down for {@code down}, and starts it again at the same address
   * with the same data; returns the seconds from the start until it accepted connections. Only a
   * server started for it has this ({@link RealServers#restartablePostgres()}).
   */
  default double stopAndStart(java.time.Duration down) {
    throw new UnsupportedOperationException(
        "this PostgreSQL cannot be stopped and started; use RealServers.restartablePostgres()");
  }

  /** Stops the server. */
  @Override
  void close();
}
