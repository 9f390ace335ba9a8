package io.faultline.it.servers;

import java.time.Duration;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * PostgreSQL from the project's own image, driven by Testcontainers' {@link PostgreSQLContainer}.
 */
final class DockerPostgres extends PooledPostgresServer {

  private final PostgreSQLContainer container;

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
    openPool();
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
  public void killBackend(int pid) {
    // The shell's own kill: the image need not have procps.
    ContainerExec.run(container, "sh", "-c", "kill -9 " + pid);
  }

  @Override
  protected void stopServer() {
    container.stop();
  }
}
