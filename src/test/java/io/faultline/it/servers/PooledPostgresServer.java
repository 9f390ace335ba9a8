package io.faultline.it.servers;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;

/** The part both kinds of test PostgreSQL share: the suite's pool, opened once the server is up. */
abstract class PooledPostgresServer implements PostgresServer {

  private HikariDataSource pool;

  /** Opens the shared pool; called by the subclass once its server accepts connections. */
  protected final void openPool() {
    pool = newPool(c -> c.setPoolName("faultline-it"));
  }

  @Override
  public final int majorVersion() {
    return 15;
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
