package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent in a real child JVM, on every available JDK, with kafka-clients and jOOQ absent and
 * present on the application's class path: the application runs, and the endpoint serves {@code
 * /metrics}, {@code /faultline/findings}, {@code /faultline/agent} and the status page.
 */
class AgentStartupTest {

  static Stream<Arguments> jdksAndLibraries() {
    List<Arguments> cases = new ArrayList<>();
    for (Jdk jdk : Jdk.available()) {
      cases.add(Arguments.of(jdk, false));
      cases.add(Arguments.of(jdk, true));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, kafka and jOOQ present: {1}")
  @MethodSource("jdksAndLibraries")
  void startsServesAndExitsCleanly(Jdk jdk, boolean librariesPresent) throws Exception {
    List<String> load = new ArrayList<>();
    if (librariesPresent) {
      load.add("org.apache.kafka.clients.producer.ProducerConfig");
      load.add("org.jooq.impl.DSL");
    }
    for (int attempt = 1; ; attempt++) {
      int port = Http.freePort();
      ChildJvm child = ChildJvm.on(jdk).agentArgs("prometheus.port=" + port);
      if (librariesPresent) {
        child.classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class));
        child.classPath(ChildJvm.jarOf(org.jooq.DSLContext.class));
        child.classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
        child.classPath(ChildJvm.jarOf(org.reactivestreams.Publisher.class));
        child.classPath(ChildJvm.jarOf(io.r2dbc.spi.ConnectionFactory.class));
      }
      try (ChildJvm.Running running =
          child.start("io.faultline.it.agent.app.WaitingApp", load.toArray(String[]::new))) {
        String base = "http://127.0.0.1:" + port;
        try {
          Http.awaitBodyContaining(
              base + "/faultline/findings", "child-app test", Duration.ofSeconds(30));
        } catch (AssertionError notServing) {
          if (running.isAlive()) {
            running.send("stop");
          }
          ChildJvm.Result result = running.awaitExit(30);
          // Http.freePort() is only free a moment ago: another socket may take it first.
          if (attempt < 3 && result.stderr().contains("cannot serve /metrics")) {
            continue;
          }
          throw new AssertionError(
              "the endpoint did not serve; child stdout:\n"
                  + result.stdout()
                  + "\nstderr:\n"
                  + result.stderr(),
              notServing);
        }
        assertServesAndExitsCleanly(running, port, librariesPresent);
        return;
      }
    }
  }

  private static void assertServesAndExitsCleanly(
      ChildJvm.Running running, int port, boolean librariesPresent) throws Exception {
    String base = "http://127.0.0.1:" + port;
    HttpResponse<String> metrics = Http.awaitOk(base + "/metrics", Duration.ofSeconds(10));
    assertThat(metrics.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(metrics.body())
        .contains(
            "faultline_findings_active_findings{id=\"TCP_WINDOW_SCALING_DISABLED\",severity=\"CRITICAL\"} 1.0")
        .contains("# HELP faultline_findings_raised");

    HttpResponse<String> findings =
        Http.awaitOk(base + "/faultline/findings", Duration.ofSeconds(10));
    assertThat(findings.body())
        .startsWith("{\"findings\":[")
        .contains("\"id\":\"TCP_WINDOW_SCALING_DISABLED\"", "\"subject\":\"child-app test\"");

    HttpResponse<String> agent = Http.awaitOk(base + "/faultline/agent", Duration.ofSeconds(10));
    assertThat(agent.body()).contains("\"errors\":0", "\"socketFds\":\"available\"");

    HttpResponse<String> page = Http.awaitOk(base + "/", Duration.ofSeconds(10));
    assertThat(page.body())
        .contains("<h2>Active findings</h2>", "TCP_WINDOW_SCALING_DISABLED", "<h2>Host doctor</h2>")
        .contains("Broker connections (test section)", "on &lt;script&gt;")
        .doesNotContain("<script>");
    assertThat(Http.get(base + "/nope").statusCode()).isEqualTo(404);

    running.send("stop");
    ChildJvm.Result result = running.awaitExit(30).assertCleanExit();
    assertThat(result.stdout()).contains("ready port=" + port, "bye");
    if (librariesPresent) {
      assertThat(result.stdout())
          .contains(
              "loaded org.apache.kafka.clients.producer.ProducerConfig",
              "loaded org.jooq.impl.DSL");
    }
    assertThat(result.stderr()).doesNotContain("faultline: ERROR", "Exception");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void portAlreadyTakenIsAMessageAndTheApplicationRuns(Jdk jdk) throws Exception {
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      ChildJvm.Running running =
          ChildJvm.on(jdk)
              .agentArgs("prometheus.port=" + taken.getLocalPort())
              .start("io.faultline.it.agent.app.WaitingApp");
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60).assertCleanExit();
      assertThat(result.stdout()).contains("ready port=none", "bye");
      assertThat(result.stderr())
          .contains(
              "faultline: cannot serve /metrics and the status page on 127.0.0.1:"
                  + taken.getLocalPort())
          .contains("The agent goes on without it.");
    }
  }

  /**
   * The agent parses its configuration on its start thread, beside {@code main}: a {@code main}
   * that ends at once must still show each problem, once.
   */
  @org.junit.jupiter.api.Test
  void aMainThatEndsAtOnceStillShowsEachConfigurationProblemOnce() {
    for (int run = 0; run < 5; run++) {
      ChildJvm.Result result =
          ChildJvm.on(Jdk.current())
              .agentArgs("prometheus.port=nope,doctor.interval=5 fortnights")
              .run(60, "io.faultline.it.agent.app.HelloApp");
      assertThat(result.exitCode()).as(result.stderr()).isZero();
      assertThat(result.stdout()).contains("main ran");
      List<String> problems =
          result.stderr().lines().filter(l -> l.startsWith("faultline: ERROR")).toList();
      assertThat(problems).as(result.stderr()).hasSize(2);
      assertThat(problems.get(0)).startsWith("faultline: ERROR doctor.interval (agent argument)");
      assertThat(problems.get(1)).startsWith("faultline: ERROR prometheus.port (agent argument)");
    }
  }

  @org.junit.jupiter.api.Test
  void dynamicAttachToARunningJvmStartsTheAgent() throws Exception {
    int port = Http.freePort();
    try (ChildJvm.Running running =
        ChildJvm.on(Jdk.current())
            .withoutAgent()
            .start("io.faultline.it.agent.app.PlainWaitingApp")) {
      Attach.agent(running.pid(), "prometheus.port=" + port);
      HttpResponse<String> agent =
          Http.awaitOk("http://127.0.0.1:" + port + "/faultline/agent", Duration.ofSeconds(30));
      assertThat(agent.body()).contains("\"errors\":0", "\"socketFds\":\"available\"");
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(30).assertCleanExit();
      assertThat(result.stdout()).contains("ready", "bye");
    }
  }

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }
}
