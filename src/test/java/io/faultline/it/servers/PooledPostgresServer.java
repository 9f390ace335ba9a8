package io.faultline.it.servers;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;

/** The part both kinds of test PostgreSQL share: the suite's pool, opened once the server is up. */
abstract class PooledPostgresServer implements PostgresServer {

  /** The suite's PostgreSQL major: the test image's packages and the binaries on the class path. */
  static final int SUITE_MAJOR = 15;

  private final int major;
  private HikariDataSource pool;

  /** A server of the suite's major version. */
  PooledPostgresServer() {
    this(SUITE_MAJOR);
  }

  /** A server of {@code major} (the version matrix starts other majors). */
  PooledPostgresServer(int major) {
    this.major = major;
  }

  /** Opens the shared pool; called by the subclass once its server accepts connections. */
  protected final void openPool() {
    pool = newPool(c -> c.setPoolName("faultline-it"));
  }

  @Override
  public final int majorVersion() {
    return major;
  }

  @Override
  public final DataSource dataSource() {
    return pool;
  }

  @Override
  public final void close() {
    if (pool != null) {
      pool.close();
    }
    stopServer();
  }

  /** Stops the server itself. */
  protected abstract void stopServer();
}
