package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The spring-boot-jooq example's executable jar (Spring Boot's nested-jar class loader, which asks
 * the system class path, where the agent is, first) started as {@code java -javaagent:... -jar},
 * the documented combination of jooq-guard as a library and the agent: it must start within a bound
 * close to its start without the agent, run its transactions, and the nested transaction's
 * savepoint must be counted once, not by the library's guard and again by the agent's.
 */
@ExtendWith(RealServers.class)
@Tag("real-world")
class SpringBootFatJarWithAgentTest {

  /** Long enough to read the agent's endpoint while the example's runaway query runs. */
  private static final String STATEMENT_TIMEOUT = "3s";

  @Test
  void startsRunsItsTransactionsAndIsGuardedOnce(PostgresServer postgres) throws Exception {
    Path jar = io.faultline.it.servers.TestPaths.springBootExampleJar();
    String without;
    double withoutSeconds;
    try (WatchedChild app =
        WatchedChild.start("spring-boot-jar-without", command(jar, postgres, null), Map.of())) {
      withoutSeconds = app.awaitExit(Duration.ofSeconds(180));
      without = app.output();
      assertThat(app.exitCode()).as("exit code; output:%n%s", without).isZero();
    }
    assertThat(without)
        .contains("provider: GuardedTransactionProvider around SpringTransactionProvider")
        .contains("   committed", "savepointsCreated=1");

    int port = Http.freePort();
    try (WatchedChild app =
        WatchedChild.start("spring-boot-jar-with", command(jar, postgres, port), Map.of())) {
      app.awaitOutput(
          "== A runaway query", StartupChecks.bound("spring boot fat jar", withoutSeconds));
      PrometheusText metrics =
          StartupChecks.awaitMetrics(
              port,
              m -> m.find("faultline_agent_module_active_modules", Map.of()).size() > 0,
              "the agent's modules",
              Duration.ofSeconds(3));
      double withSeconds = app.awaitExit(StartupChecks.bound(withoutSeconds));
      StartupChecks.report("spring boot fat jar (jooq-guard + agent)", withoutSeconds, withSeconds);
      String with = app.output();
      assertThat(app.exitCode()).as("exit code; output:%n%s", with).isZero();
      assertThat(with).doesNotContain(ChildJvm.ERRORS_AT_EXIT);
      assertThat(guardLines(with))
          .as("the library guard's counts and meters, with the agent as without it")
          .isEqualTo(guardLines(without));
      double librarySavepoints = savepointsCreated(without);
      assertThat(StartupChecks.savepointsCreated(metrics) + savepointsCreated(with))
          .as(
              "savepoints counted by the library's guard (%s) and the agent's (%s): once in all",
              savepointsCreated(with), StartupChecks.savepointsCreated(metrics))
          .isEqualTo(librarySavepoints);
      StartupChecks.assertStartupBlockedBelowATenth(metrics);
    }
  }

  /** The lines with what the library's guard counted: its stats and its meters. */
  private static List<String> guardLines(String output) {
    return output
        .lines()
        .filter(l -> l.startsWith("guard stats: ") || l.startsWith("meter "))
        .toList();
  }

  private static double savepointsCreated(String output) {
    var m = java.util.regex.Pattern.compile("savepointsCreated=(\\d+)").matcher(output);
    assertThat(m.find()).as("savepointsCreated in:%n%s", output).isTrue();
    return Double.parseDouble(m.group(1));
  }

  private static List<String> command(Path jar, PostgresServer postgres, Integer agentPort) {
    List<String> command = new ArrayList<>();
    command.add(Jdk.current().java().toString());
    if (agentPort != null) {
      command.add("-javaagent:" + ChildJvm.agentJar() + "=prometheus.port=" + agentPort);
    }
    command.addAll(
        List.of(
            "-jar",
            jar.toString(),
            "--spring.datasource.url=" + postgres.jdbcUrl(),
            "--spring.datasource.username=" + postgres.username(),
            "--spring.datasource.password=" + postgres.password(),
            "--faultline.jooq.statement-timeout=" + STATEMENT_TIMEOUT));
    return command;
  }
}
