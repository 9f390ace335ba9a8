package io.faultline.examples.demo;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real PostgreSQL 15 server from zonky's embedded binaries (unpacked once into the temporary
 * directory and reused by later runs), on 127.0.0.1 and a free port, with a fresh data directory.
 */
final class PostgresServer implements AutoCloseable {

  private final EmbeddedPostgres postgres;

  private PostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  static PostgresServer start(Path dataDirectory) throws IOException {
    return new PostgresServer(
        EmbeddedPostgres.builder()
            .setDataDirectory(dataDirectory)
            .setCleanDataDirectory(true)
            .setServerConfig("max_connections", "50")
            .setPGStartupWait(Duration.ofMinutes(1))
            .start());
  }

  String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  String user() {
    return "postgres";
  }

  String password() {
    return "postgres";
  }

  @Override
  public void close() throws IOException {
    postgres.close();
  }
}
