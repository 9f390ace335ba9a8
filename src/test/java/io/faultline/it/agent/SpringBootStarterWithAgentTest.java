package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.TestPaths;
import io.faultline.it.starter.BootApp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * faultline-spring-boot-starter where the agent is attached too, and on Boot 4 with JDK 25: real
 * Boot applications from their executable jars, in JVMs of their own, against a real PostgreSQL.
 */
@ExtendWith(RealServers.class)
class SpringBootStarterWithAgentTest {

  private static final Duration START = Duration.ofSeconds(120);

  @Test
  void withTheAgentAttachedTheProviderIsGuardedOnce(PostgresServer postgres) throws Exception {
    try (BootApp app =
        BootApp.start(
            List.of(
                "-javaagent:" + ChildJvm.agentJar(),
                "-jar",
                TestPaths.springBoot3AppJar().toString()),
            postgres)) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out)
          .contains("the Faultline agent is attached too")
          .contains("already guarded by the application's jooq-guard; the agent leaves")
          .contains("provider: GuardedTransactionProvider")
          .contains("savepointsCreated=1", "nestedAllowed=1")
          .contains("finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
      // One savepoint, counted once, on the application's registry.
      assertThat(app.get("/actuator/metrics/faultline.jooq.savepoints?tag=outcome:created"))
          .contains("\"value\":1.0");
      assertThat(app.get("/actuator/faultline"))
          .containsOnlyOnce("\"id\":\"JOOQ_SAVEPOINT_AFTER_ROW_LOCK\"");
    }
  }

  @Test
  void withTheAgentAttachedSpringsSavepointsAreCountedOnce(PostgresServer postgres)
      throws Exception {
    int agentPort = Http.freePort();
    try (BootApp app =
        BootApp.start(
            List.of(
                "-javaagent:" + ChildJvm.agentJar() + "=prometheus.port=" + agentPort,
                "-jar",
                TestPaths.springBoot3AppJar().toString()),
            postgres,
            "--scenes=jooq,transactional,mixed")) {
      String out = app.awaitLine("scenes done", START);
      assertThat(out)
          .contains("the Faultline agent is attached too")
          .contains("scene jooq: done", "scene transactional: done", "scene mixed: done")
          .contains("savepointsCreated=3", "nestedAllowed=3");
      // Three savepoints (one per flow), each counted once, on the application's registry.
      assertThat(app.get("/actuator/metrics/faultline.jooq.savepoints?tag=outcome:created"))
          .contains("\"value\":3.0");
      String findings = app.get("/actuator/faultline");
      assertThat(findings.split("\"id\":\"JOOQ_SAVEPOINT_AFTER_ROW_LOCK\"", -1))
          .as("one finding per flow's call site")
          .hasSize(4);
      // The agent counted none of them: it left the provider to the starter and does not count
      // Spring's savepoints.
      PrometheusText agentMetrics =
          StartupChecks.awaitMetrics(
              agentPort,
              m -> m.find("faultline_agent_module_active_modules", Map.of()).size() > 0,
              "the agent's modules",
              Duration.ofSeconds(30));
      assertThat(StartupChecks.savepointsCreated(agentMetrics)).isZero();
    }
  }

  @Test
  void boot4ExampleOnJdk25RaisesTheFindingsThroughTheStarter(PostgresServer postgres)
      throws Exception {
    Jdk jdk25 =
        Jdk.available().stream().filter(j -> j.name().equals("jdk25")).findFirst().orElseThrow();
    jdk25.assumeInstalled();
    try (BootApp app =
        BootApp.start(
            jdk25.java(), List.of("-jar", TestPaths.springBootExampleJar().toString()), postgres)) {
      assertThat(app.awaitExit(START)).as("exit code").isZero();
      assertThat(app.output())
          .contains("provider: GuardedTransactionProvider around SpringTransactionProvider")
          .contains("savepointsCreated=1", "statementTimeouts=1")
          .contains("finding JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
          .contains("meter faultline.jooq.savepoints[tag(outcome=created)] = 1.0");
    }
  }
}
