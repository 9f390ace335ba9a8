package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent never initialises the application's logging: its copy of Micrometer would otherwise
 * look for SLF4J on the application's class path and set up the application's backend on the
 * agent's start thread, before {@code main} had configured it (and while {@code main} may be
 * initialising the same classes); and a logger made through {@code System.getLogger} outside the
 * JDK creates the JDK's {@code java.util.logging} log manager before {@code main} could choose its
 * own.
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

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  /** On every JDK: the agent reaches the JDK's lazy loggers through an internal package. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void logManagerChosenInMainAfterTheAgentStartedIsTheOneInPlace(Jdk jdk) {
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .agentArgs("prometheus.port=0")
            .run(60, "io.faultline.it.agent.app.LogManagerChosenInMainApp");

    result.assertCleanExit();
    assertThat(result.stdout())
        .as("the log manager main chose; stderr:\n%s", result.stderr())
        .contains("log-manager=io.faultline.it.agent.app.LogManagerChosenInMainApp$OwnLogManager");
    assertThat(result.stderr())
        .as("main's line, through its log manager")
        .contains("logged by main");
  }
}
