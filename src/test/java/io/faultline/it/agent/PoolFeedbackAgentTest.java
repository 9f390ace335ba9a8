package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent's {@code hikari-pool-feedback} module finds a HikariCP pool the application built
 * (Spring-style: setters, lazily started) with no code change, and its monitor raises {@code
 * POOL_GROWTH_UNDER_CONTENTION} when the pool grows under row-lock contention on a real PostgreSQL.
 */
@ExtendWith(RealServers.class)
class PoolFeedbackAgentTest {

  @Test
  void theAgentWatchesTheApplicationsHikariPool(PostgresServer postgres) throws Exception {
    String table = "hot_agent_" + Long.toHexString(System.nanoTime());
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, v int NOT NULL)");
      s.execute("INSERT INTO " + table + " SELECT g, 0 FROM generate_series(1, 3) g");
    }
    int port = Http.freePort();
    ChildJvm.Result result =
        ChildJvm.on(Jdk.current())
            .classPath(ChildJvm.jarOf(HikariDataSource.class))
            .classPath(ChildJvm.jarOf(org.postgresql.Driver.class))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class))
            .agentArgs(
                "prometheus.port="
                    + port
                    + ",jooq.pool-feedback.interval=200ms,jooq.pool-feedback.window=10s")
            .run(
                90,
                "io.faultline.it.agent.app.PoolFeedbackApp",
                String.valueOf(port),
                postgres.jdbcUrl(),
                postgres.username(),
                postgres.password(),
                table)
            .assertCleanExit();
    System.out.println(result.stdout());
    assertThat(result.stdout()).as("stdout:%n%s", result).contains("raised ").contains("app-pool");
  }
}
