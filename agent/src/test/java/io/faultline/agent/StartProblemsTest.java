package io.faultline.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartProblemsTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(out, true, StandardCharsets.UTF_8);

  private StartProblems problems(String agentArguments) {
    return new StartProblems(
        ConfigSources.of(Map.of(), Map.of(), agentArguments),
        List.of("faultline: an instrumentation module could not be created: boom"),
        err);
  }

  private List<String> lines() {
    return out.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void theStartThreadPrintsTheProblemsAndTheExitReportDoesNotAgain() {
    StartProblems problems = problems("prometheus.port=nope");

    FaultlineConfig config = problems.load();
    problems.printIfNotYet();

    assertThat(config.problems()).hasSize(1);
    assertThat(lines())
        .containsExactly(
            config.problems().get(0).toLine(),
            "faultline: an instrumentation module could not be created: boom");
    assertThat(lines().get(0)).contains("prometheus.port");
  }

  @Test
  void aJvmThatEndsBeforeTheStartThreadParsedTheConfigurationStillShowsItsProblems() {
    StartProblems problems = problems("prometheus.port=nope");

    problems.printIfNotYet();
    problems.load();

    assertThat(lines()).hasSize(2);
    assertThat(lines().get(0)).startsWith("faultline: ERROR prometheus.port");
    assertThat(lines().get(1)).endsWith("boom");
  }

  @Test
  void aCleanConfigurationPrintsNothing() {
    StartProblems problems =
        new StartProblems(
            ConfigSources.of(Map.of(), Map.of(), "prometheus.port=0"), List.of(), err);

    problems.load();
    problems.printIfNotYet();

    assertThat(lines()).isEmpty();
  }
}
