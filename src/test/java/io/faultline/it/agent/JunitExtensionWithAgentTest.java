package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.observe.Observations;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.junit.FaultlineExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * faultline-junit in a test JVM that runs with the agent ({@code -javaagent}, as Surefire's {@code
 * argLine} adds it) and test code with no Faultline in it: the agent's guard, in the agent's own
 * relocated classes, reports through the bridge, and the extension fails the right tests on the
 * real PostgreSQL.
 */
@ExtendWith(RealServers.class)
class JunitExtensionWithAgentTest {

  @Test
  void theAgentsFindingsAndCountsFailTheTestsThatCausedThem(PostgresServer postgres)
      throws Exception {
    String table = "junit_agent_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, 100), (2, 100)");
    }
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=" + Http.freePort())
            .option("-Dit.jdbc.url=" + postgres.jdbcUrl())
            .option("-Dit.jdbc.user=" + postgres.username())
            .option("-Dit.jdbc.password=" + postgres.password())
            .option("-Dit.table=" + table);
    for (Path p : classPath()) {
      child.classPath(p);
    }

    ChildJvm.Result result = child.run(120, "io.faultline.it.agent.app.JunitWithAgentApp");
    ChildJvm.save("junit-with-agent.txt", result.stdout() + "\n--- stderr\n" + result.stderr());
    result.assertCleanExit();

    assertThat(result.stdout())
        .contains("PASSED clean()")
        .containsPattern(
            "FAILED savepointAfterForUpdate\\(\\): java.lang.AssertionError: Faultline: 1 finding"
                + " this test fails on .*JOOQ_SAVEPOINT_AFTER_ROW_LOCK \\[CRITICAL\\] about"
                + " io.faultline.it.agent.app.JunitWithAgentApp\\$Target.lambda\\$savepointAfterForUpdate")
        .containsPattern(
            "FAILED twoStatements\\(\\): .*@MaxStatements\\(1\\): a transaction begun at"
                + " io.faultline.it.agent.app.JunitWithAgentApp\\$Target.twoStatements.* ran 2"
                + " statements")
        .contains(
            "REPORT faultline.report=Faultline findings per test (observing jooq-guard as a"
                + " library and the agent)");
  }

  /** The child's class path: JUnit, the extension and core, jOOQ, the pool and the driver. */
  private static List<Path> classPath() {
    return List.of(
        ChildJvm.jarOf(FaultlineExtension.class),
        ChildJvm.jarOf(Observations.class),
        ChildJvm.jarOf(org.junit.jupiter.api.Test.class),
        ChildJvm.jarOf(org.junit.jupiter.engine.JupiterTestEngine.class),
        ChildJvm.jarOf(org.junit.platform.engine.TestEngine.class),
        ChildJvm.jarOf(org.junit.platform.launcher.core.LauncherFactory.class),
        ChildJvm.jarOf(org.junit.platform.commons.support.AnnotationSupport.class),
        ChildJvm.jarOf(org.opentest4j.AssertionFailedError.class),
        ChildJvm.jarOf(org.apiguardian.api.API.class),
        ChildJvm.jarOf(org.jooq.impl.DSL.class),
        ChildJvm.jarOf(org.reactivestreams.Publisher.class),
        ChildJvm.jarOf(io.r2dbc.spi.ConnectionFactory.class),
        ChildJvm.jarOf(com.zaxxer.hikari.HikariDataSource.class),
        ChildJvm.jarOf(org.slf4j.Logger.class),
        ChildJvm.jarOf(org.postgresql.Driver.class));
  }
}
