package io.faultline.it.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.BaseImage;
import io.faultline.it.servers.RequiresDocker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * The agent-in-container example: its Dockerfile builds as it is (with the jars the build put in
 * its {@code target/}), the JVM in the container picks the agent up from {@code JAVA_TOOL_OPTIONS}
 * alone, and the agent's endpoint answers from outside the container with the application's
 * connection churn counted.
 */
@RequiresDocker("it builds and runs the example's image")
class AgentInContainerExampleTest {

  private static final Pattern CONNECTS =
      Pattern.compile(
          "faultline_net_connects_connections_total\\{destination=\"127\\.0\\.0\\.1:8080\"\\}"
              + " ([0-9.E]+)");

  @Test
  void theAgentStartsFromJavaToolOptionsAndServesItsEndpoint() throws Exception {
    Path docs = Path.of(System.getProperty("faultline.it.docs.dir", "../../docs"));
    Path context = docs.resolveSibling("examples").resolve("agent-in-container").normalize();
    assertThat(context.resolve("target/app.jar"))
        .as("built by ./mvnw package -pl examples/agent-in-container -am")
        .isRegularFile();
    Path agentJar = context.resolve("target/agent").resolve(agentJar().getFileName().toString());
    assertThat(agentJar).isRegularFile();
    assertThat(Files.mismatch(agentJar, agentJar()))
        .as("the image gets the shaded agent the suite attaches everywhere else")
        .isEqualTo(-1L);

    // A fixed tag, rebuilt each run from the cached apt layer: at most one image is left behind.
    ImageFromDockerfile image =
        new ImageFromDockerfile("faultline-it/agent-in-container-example:latest", false)
            .withDockerfile(context.resolve("Dockerfile"))
            // The suite's base image, as for its server images (the apt layer is then shared).
            .withBuildArg("BASE_IMAGE", BaseImage.resolve(DockerClientFactory.instance().client()));
    try (GenericContainer<?> app =
        new GenericContainer<>(image)
            .withExposedPorts(9464)
            // Read from outside the container, the status page is refused by default (only
            // /metrics is served beyond loopback); this test reads the agent's state through it.
            .withEnv("FAULTLINE_PROMETHEUS_STATUS__PAGE", "on")
            .waitingFor(
                Wait.forHttp("/faultline/agent")
                    .forPort(9464)
                    .withStartupTimeout(Duration.ofSeconds(120)))) {
      app.start();
      String base = "http://" + app.getHost() + ":" + app.getMappedPort(9464);

      assertThat(status(base + "/faultline/findings"))
          .as("the findings, not switched on, are refused to a client outside the container")
          .isEqualTo(403);
      String agent = get(base + "/faultline/agent");
      assertThat(agent).contains("\"errors\":0", "\"socketFds\":\"available\"");
      // The application's own connections, counted by the agent: one per request, ~20 a second.
      double connects = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (connects < 20 && System.nanoTime() < deadline) {
        Matcher m = CONNECTS.matcher(get(base + "/metrics"));
        connects = m.find() ? Double.parseDouble(m.group(1)) : 0;
        Thread.sleep(500);
      }
      String logs = app.getLogs();
      String agentAfter = get(base + "/faultline/agent");
      System.out.println(
          "[examples] agent in container: "
              + connects
              + " connections to 127.0.0.1:8080 counted; /faultline/agent: "
              + agentAfter
              + "\nlog:\n"
              + logs);
      // Both JDK socket classes woven, however early the service first loaded them.
      assertThat(agentAfter)
          .contains(
              "\"name\":\"jdk-socket-connect\",\"state\":\"ACTIVE\",\"reason\":\"\","
                  + "\"woven\":[\"java.net.Socket\",\"sun.nio.ch.SocketChannelImpl\"]");
      assertThat(connects)
          .as("connections the agent counted; /faultline/agent: %s", agentAfter)
          .isGreaterThanOrEqualTo(20);
      assertThat(logs)
          .contains(
              "Picked up JAVA_TOOL_OPTIONS: -javaagent:/faultline/faultline-agent.jar",
              "orders-app: serving")
          .doesNotContain("faultline: ERROR");
      assertThat(get(base + "/")).contains("<h2>Active findings</h2>");
    }
  }

  private static Path agentJar() {
    return Path.of(System.getProperty("faultline.it.agent.jar")).toAbsolutePath().normalize();
  }

  private static int status(String url) throws IOException, InterruptedException {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(url).isEqualTo(200);
    return response.body();
  }
}
