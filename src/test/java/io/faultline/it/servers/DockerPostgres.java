package io.faultline.it.servers;

import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * PostgreSQL from the project's own image, driven by Testcontainers' {@link PostgreSQLContainer}.
 */
final class DockerPostgres extends PooledPostgresServer {

  private final PostgreSQLContainer container;

  DockerPostgres() {
    this(false);
  }

  /**
   * With {@code fixedPort}, published on a host port chosen now rather than by Docker on each
   * start, so the server keeps its address across {@link #stopAndStart}.
   */
  DockerPostgres(boolean fixedPort) {
    DockerImageName image =
        DockerImageName.parse(LocalImages.postgres()).asCompatibleSubstituteFor("postgres");
    this.container =
        new PostgreSQLContainer(image)
            .withDatabaseName("faultline")
            .withUsername("faultline")
            .withPassword("faultline");
    container.withStartupTimeout(Duration.ofMinutes(2));
    if (fixedPort) {
      container.setPortBindings(List.of(freePort() + ":5432"));
    }
    container.start();
    openPool();
  }

  @Override
  public String jdbcUrl() {
    return container.getJdbcUrl();
  }

  @Override
  public String directJdbcUrl() {
    return "jdbc:postgresql://"
        + ContainerAddresses.of(container)
        + ":5432/"
        + container.getDatabaseName();
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
  public double stopAndStart(Duration down) {
    String id = container.getContainerId();
    try {
      // The postmaster's fast shutdown; the container's init (runuser) ends with it.
      container.execInContainer(
          "runuser",
          "-u",
          "postgres",
          "--",
          "pg_ctl",
          "-D",
          "/var/lib/postgresql/data",
          "-m",
          "fast",
          "-w",
          "stop");
    } catch (Exception e) {
      // The exec's session can end with the container; whether it stopped is checked below.
    }
    DockerClient docker = DockerClientFactory.instance().client();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (Boolean.TRUE.equals(docker.inspectContainerCmd(id).exec().getState().getRunning())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("PostgreSQL did not stop within 60 s");
      }
      Sleeps.sleep(Duration.ofMillis(100));
    }
    Sleeps.sleep(down);
    long started = System.nanoTime();
    docker.startContainerCmd(id).exec();
    deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try (Connection c = connect()) {
        return (System.nanoTime() - started) / 1e9;
      } catch (SQLException e) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("PostgreSQL did not start again within 60 s", e);
        }
        Sleeps.sleep(Duration.ofMillis(100));
      }
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected void stopServer() {
    container.stop();
  }
}
