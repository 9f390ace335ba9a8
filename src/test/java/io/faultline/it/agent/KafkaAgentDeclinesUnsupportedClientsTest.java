package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent in front of a kafka-clients whose methods it was not written for (2.2.2: staged
 * receives, no {@code Selector.addToCompletedReceives(KafkaChannel, NetworkReceive, long)}): the
 * Kafka modules whose advised methods are missing turn themselves off as {@code INCOMPATIBLE} with
 * a message naming the method, the application produces and consumes as without the agent, and
 * nothing is counted as an agent error. {@code /faultline/agent}, the status page and the {@code
 * faultline_agent_module_active} gauge say which modules are off and why.
 */
@ExtendWith(RealServers.class)
class KafkaAgentDeclinesUnsupportedClientsTest {

  private static final Pattern MODULE =
      Pattern.compile(
          "\\{\"name\":\"(kafka-clients-[^\"]+)\",\"state\":\"([A-Z_]+)\",\"reason\":(null|\"[^\"]*\")");

  @Test
  void kafkaModulesTurnThemselvesOffAndTheApplicationRunsUnchanged(KafkaCluster kafka)
      throws Exception {
    String jar = System.getProperty("faultline.it.kafka.unsupported.jar");
    String version = System.getProperty("faultline.it.kafka.unsupported.version");
    assertThat(jar).as("faultline.it.kafka.unsupported.jar (set by src/test/pom.xml)").isNotNull();
    assertThat(Path.of(jar)).isRegularFile();
    String topic = "old-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    int port = Http.freePort();
    Path ready = Files.createTempFile("kafka-old", ".ready");
    Files.delete(ready);
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=" + port + ",kafka.tcp.interval=1s")
            .classPath(Path.of(jar))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
    try (ChildJvm.Running running =
        child.start(
            "io.faultline.it.agent.app.KafkaTrafficApp",
            kafka.bootstrapServers(),
            topic,
            "100",
            "2000",
            ready.toString())) {
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (!Files.exists(ready) && System.nanoTime() < deadline && running.isAlive()) {
        Thread.sleep(200);
      }
      assertThat(ready).as("the application ran with kafka-clients %s", version).exists();
      assertThat(Files.readString(ready)).isEqualTo("produced=100 consumed=100");
      String base = "http://127.0.0.1:" + port;
      String agent = Http.awaitOk(base + "/faultline/agent", Duration.ofSeconds(10)).body();
      String page = Http.awaitOk(base + "/", Duration.ofSeconds(10)).body();
      PrometheusText metrics =
          PrometheusText.parse(Http.awaitOk(base + "/metrics", Duration.ofSeconds(10)).body());
      ChildJvm.save("kafka-unsupported.agent.json", agent);
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60);
      ChildJvm.save("kafka-unsupported.stderr.txt", result.stderr());

      Map<String, String> states = new java.util.TreeMap<>();
      Map<String, String> reasons = new java.util.TreeMap<>();
      Matcher m = MODULE.matcher(agent);
      while (m.find()) {
        states.put(m.group(1), m.group(2));
        reasons.put(m.group(1), m.group(3));
      }
      System.out.println("kafka-clients " + version + " with the agent: " + states);
      reasons.forEach((k, v) -> System.out.println("  " + k + ": " + v));
      assertThat(states)
          .as("/faultline/agent: %s", agent)
          .containsEntry("kafka-clients-3.9-phases", "INCOMPATIBLE");
      assertThat(reasons.get("kafka-clients-3.9-phases"))
          .contains("org.apache.kafka.common.network.Selector has no method matching");
      assertThat(states.values()).as("no Kafka module failed").doesNotContain("FAILED");
      assertThat(result.stderr())
          .contains("instrumentation module kafka-clients-3.9-phases is off")
          .contains("This library version is not supported; the application runs unchanged.");
      assertThat(page).contains("kafka-clients-3.9-phases", "INCOMPATIBLE");
      var active =
          metrics.namesStartingWith("faultline_agent_module_active").stream()
              .flatMap(n -> metrics.find(n, Map.of("module", "kafka-clients-3.9-phases")).stream())
              .toList();
      assertThat(active).as("module gauge").hasSize(1);
      assertThat(active.get(0).value()).as("phases module active").isZero();
      assertThat(metrics.sum("faultline_agent_errors_total", Map.of())).as("agent errors").isZero();
      assertThat(metrics.namesStartingWith("faultline_kafka_request_phase"))
          .as("no phases measured with the module off")
          .isEmpty();
      result.assertCleanExit();
      assertThat(result.stdout()).contains("bye");
    }
  }
}
