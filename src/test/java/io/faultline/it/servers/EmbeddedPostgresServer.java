package io.faultline.it.servers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/** A real PostgreSQL server started from zonky's embedded binaries on 127.0.0.1. */
final class EmbeddedPostgresServer extends PooledPostgresServer {

  private final EmbeddedPostgres postgres;

  /** The server from the binaries on the class path (the suite's PostgreSQL version). */
  EmbeddedPostgresServer() {
    this(null, "postgres", SUITE_MAJOR);
  }

  /**
   * The server from the binaries {@code binaries} gives ({@code null}: those on the class path), of
   * major version {@code major}, its data under a fresh folder named after {@code name}.
   */
  EmbeddedPostgresServer(PgBinaryResolver binaries, String name, int major) {
    super(major);
    try {
      EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
      if (binaries != null) {
        builder.setPgBinaryResolver(binaries);
      }
      this.postgres =
          builder
              .setDataDirectory(TestPaths.workDir(name).resolve("data"))
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
