package io.faultline.it.servers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/** A real PostgreSQL server started from zonky's embedded binaries on 127.0.0.1. */
final class EmbeddedPostgresServer extends PooledPostgresServer {

  private final EmbeddedPostgres postgres;

  EmbeddedPostgresServer() {
    try {
      this.postgres =
          EmbeddedPostgres.builder()
              .setDataDirectory(TestPaths.workDir("postgres").resolve("data"))
              .setCleanDataDirectory(true)
              .setServerConfig("max_connections", "200")
              .setPGStartupWait(Duration.ofMinutes(1))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start embedded PostgreSQL", e);
    }
    openPool();
  }

  @Override
  public String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  @Override
  public String username() {
    return "postgres";
  }

  @Override
  public String password() {
    return "postgres";
  }

  @Override
  public void killBackend(int pid) {
    // The embedded server's processes are this user's, on this host.
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  @Override
  protected void stopServer() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
