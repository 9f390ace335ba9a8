package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The agent never initialises the application's logging: its copy of Micrometer would otherwise
 * look for SLF4J on the application's class path and set up the application's backend on the
 * agent's start thread, before {@code main} had configured it (and while {@code main} may be
 * initialising the same classes).
 */
class AgentLeavesApplicationLoggingAloneTest {

  @Test
  void loggingConfiguredInMainAfterTheAgentStartedTakesEffect() {
    ChildJvm.Result result =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=0")
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class))
            .classPath(ChildJvm.jarOf(org.slf4j.simple.SimpleLogger.class))
            .run(60, "io.faultline.it.agent.app.LoggingConfiguredInMainApp");

    result.assertCleanExit();
    assertThat(result.stdout())
        .as("the line logged with main's configuration; stderr:\n%s", result.stderr())
        .contains("[WARN] app - configured by main");
  }
}
