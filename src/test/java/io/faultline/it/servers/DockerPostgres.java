package io.faultline.it.servers;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import javax.sql.DataSource;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * PostgreSQL from the project's own image, driven by Testcontainers' {@link PostgreSQLContainer}.
 */
final class DockerPostgres implements PostgresServer {

  private final PostgreSQLContainer container;
  private final HikariDataSource pool;

  DockerPostgres() {
    DockerImageName image =
        DockerImageName.parse(LocalImages.postgres()).asCompatibleSubstituteFor("postgres");
    this.container =
        new PostgreSQLContainer(image)
            .withDatabaseName("faultline")
            .withUsername("faultline")
            .withPassword("faultline");
    container.withStartupTimeout(Duration.ofMinutes(2));
    container.start();
    this.pool = newPool(c -> c.setPoolName("faultline-it"));
  }

  @Override
  public String jdbcUrl() {
    return container.getJdbcUrl();
  }

  @Override
  public String username() {
    return container.getUsername();
  }

  @Override
  public String password() {
    return container.getPassword();
  }

  @Override
  public int majorVersion() {
    return 15;
  }

  @Override
  public DataSource dataSource() {
    return pool;
  }

  @Override
  public void close() {
    pool.close();
    container.stop();
  }
}
