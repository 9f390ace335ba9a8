package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Configuration advice at client construction, through the agent: a plain application builds a
 * producer with {@code reconnect.backoff.ms=500} and no {@code reconnect.backoff.max.ms} (the
 * no-jitter trap) and a consumer with Kafka's defaults. {@code KAFKA_RECONNECT_BACKOFF_NO_JITTER}
 * is raised for the producer only, and each client's configuration is logged as checked exactly
 * once.
 */
@ExtendWith(RealServers.class)
class KafkaAgentConfigAdvisorTest {

  @Test
  void theNoJitterTrapIsFoundWhenTheProducerIsBuilt(KafkaCluster kafka) throws Exception {
    String topic = "advice-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    int port = Http.freePort();
    Path ready = Files.createTempFile("kafka-advice", ".ready");
    Files.delete(ready);
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=" + port)
            .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
    try (ChildJvm.Running running =
        child.start(
            "io.faultline.it.agent.app.KafkaTrafficApp",
            kafka.bootstrapServers(),
            topic,
            "20",
            "100",
            ready.toString(),
            "reconnect.backoff.ms=500")) {
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (!Files.exists(ready) && System.nanoTime() < deadline && running.isAlive()) {
        Thread.sleep(200);
      }
      assertThat(ready).exists();
      assertThat(Files.readString(ready)).isEqualTo("produced=20 consumed=20");
      String base = "http://127.0.0.1:" + port;
      String findings = Http.awaitOk(base + "/faultline/findings", Duration.ofSeconds(10)).body();
      String agent = Http.awaitOk(base + "/faultline/agent", Duration.ofSeconds(10)).body();
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60);
      ChildJvm.save("kafka-advice.stderr.txt", result.stderr());
      result.assertCleanExit();

      assertThat(agent).contains("{\"name\":\"kafka-clients-3.9-advice\",\"state\":\"ACTIVE\"");
      assertThat(findings)
          .contains("KAFKA_RECONNECT_BACKOFF_NO_JITTER")
          .contains("client traffic-producer")
          .doesNotContain("client traffic-consumer");
      assertThat(count(result.stderr(), "Kafka producer traffic-producer: configuration checked"))
          .as("logged once for the producer")
          .isEqualTo(1);
      // Nothing to advise is a DEBUG line: a healthy client adds nothing to the log.
      assertThat(count(result.stderr(), "Kafka consumer traffic-consumer: configuration checked"))
          .as("not logged at the default level for the consumer, which has nothing to advise")
          .isZero();
      System.out.println(
          result
              .stderr()
              .lines()
              .filter(l -> l.contains("configuration checked") || l.contains("NO_JITTER"))
              .reduce("", (a, b) -> a + b + "\n"));
    }
  }

  private static long count(String text, String needle) {
    return text.lines().filter(l -> l.contains(needle)).count();
  }
}
