package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.agent.AgentConfigKeys;
import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint as configured: pages and who may read them, the token and its file. */
class EndpointSetupTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  private static final EndpointSetup.Pages PAGES =
      new EndpointSetup.Pages(
          accept ->
              new ScrapeEndpoint.Page(
                  "text/plain; version=0.0.4",
                  "up 1.0\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
          () -> "{\"findings\":[]}",
          () -> "{\"version\":1}",
          () -> "<p>page</p>");

  private static FaultlineConfig config(String agentArgs) {
    return FaultlineConfig.builder()
        .sources(ConfigSources.of(Map.of(), Map.of(), "prometheus.port=0," + agentArgs))
        .catalogsFromClassPath(false)
        .keys(new AgentConfigKeys().keys())
        .load();
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void byDefaultFindingsAndTheStatusPageAreForLoopbackClientsOnly() {
    Map<String, ScrapeEndpoint.Route> routes = EndpointSetup.routes(config(""), PAGES);
    assertThat(routes.keySet())
        .containsExactly("/metrics", "/faultline/findings", "/faultline/agent", "/");
    assertThat(routes.get("/metrics").loopbackOnly()).isFalse();
    assertThat(routes.get("/faultline/findings").loopbackOnly()).isTrue();
    assertThat(routes.get("/faultline/agent").loopbackOnly()).isTrue();
    assertThat(routes.get("/").loopbackOnly()).isTrue();
  }

  @Test
  void eachSwitchOpensOrClosesItsPages() {
    Map<String, ScrapeEndpoint.Route> onlyMetrics =
        EndpointSetup.routes(config("prometheus.findings=off,prometheus.status-page=off"), PAGES);
    assertThat(onlyMetrics.keySet()).containsExactly("/metrics");

    Map<String, ScrapeEndpoint.Route> open =
        EndpointSetup.routes(config("prometheus.findings=on,prometheus.status-page=off"), PAGES);
    assertThat(open.keySet()).containsExactly("/metrics", "/faultline/findings");
    assertThat(open.get("/faultline/findings").loopbackOnly()).isFalse();

    Map<String, ScrapeEndpoint.Route> page =
        EndpointSetup.routes(config("prometheus.findings=off,prometheus.status-page=on"), PAGES);
    assertThat(page.keySet()).containsExactly("/metrics", "/faultline/agent", "/");
    assertThat(page.get("/").loopbackOnly()).isFalse();
  }

  @Test
  void aBadSwitchValueTurnsTheWholeEndpointOff() {
    FaultlineConfig config = config("prometheus.findings=everyone,prometheus.port=9");
    assertThat(config.isFeatureEnabled(AgentConfigKeys.PROMETHEUS)).isFalse();
    assertThat(EndpointSetup.start(config, PAGES, err)).isNull();
  }

  @Test
  void theTokenComesFromTheValueOrTheFileTrimmed() throws Exception {
    assertThat(EndpointSetup.token(config(""))).isNull();
    BearerToken fromValue = EndpointSetup.token(config("prometheus.token=abc123"));
    assertThat(fromValue.matches("Bearer abc123")).isTrue();
    assertThat(fromValue.toString()).doesNotContain("abc123");

    Path file = Files.writeString(dir.resolve("token"), "  s3cret-from-file\n");
    BearerToken fromFile = EndpointSetup.token(config("prometheus.token-file=" + file));
    assertThat(fromFile.matches("Bearer s3cret-from-file")).isTrue();
    assertThat(fromFile.matches("Bearer s3cret-from-file\n")).isTrue();
    assertThat(fromFile.matches("Bearer s3cret")).isFalse();
  }

  @Test
  void aTokenFileThatCannotBeUsedKeepsTheEndpointClosedAndSaysWhy() throws Exception {
    Path missing = dir.resolve("missing");
    Path empty = Files.writeString(dir.resolve("empty"), " \n");
    Path twoLines = Files.writeString(dir.resolve("two"), "first\nsecond\n");
    Path good = Files.writeString(dir.resolve("good"), "tok");
    String[] bad = {
      "prometheus.token-file=" + missing,
      "prometheus.token-file=" + empty,
      "prometheus.token-file=" + twoLines,
      "prometheus.token-file=" + dir,
      "prometheus.token=x,prometheus.token-file=" + good,
    };
    for (String args : bad) {
      errBytes.reset();
      FaultlineConfig config =
          config(args.replace("prometheus.port=0,", "") + ",prometheus.port=1");
      assertThat(EndpointSetup.start(config, PAGES, err)).as(args).isNull();
      assertThat(err())
          .as(args)
          .startsWith("faultline: ERROR prometheus.token-file (agent argument): ")
          .contains("The endpoint is not started")
          .doesNotContain("second", "tok\n")
          .hasLineCount(1);
    }
  }
}
