package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kafka Streams' own {@code WordCountDemo} (kafka-streams 4.3.1, RocksDB state) against the real
 * broker, without and with the agent: with it, the first count must come out within a bound close
 * to the run without it, and the agent must have timed the application's produce requests.
 */
@ExtendWith(RealServers.class)
@Tag("real-world")
class KafkaStreamsWithAgentTest {

  private static final String INPUT = "streams-plaintext-input";
  private static final String OUTPUT = "streams-wordcount-output";

  @Test
  void wordCountStartsAsFastAsWithoutTheAgentAndCounts(KafkaCluster kafka) throws Exception {
    ensureTopics(kafka);
    double without;
    try (WatchedChild child = start(kafka, "without", null)) {
      without = awaitCount(kafka, child, Duration.ofSeconds(120));
    }
    int port = Http.freePort();
    try (WatchedChild child = start(kafka, "with", port)) {
      double with =
          awaitCount(kafka, child, StartupChecks.bound("kafka streams WordCountDemo", without));
      StartupChecks.report("kafka streams WordCountDemo (first count)", without, with);
      PrometheusText metrics =
          StartupChecks.awaitMetrics(
              port,
              m -> StartupChecks.producePhases(m) >= 1,
              "the application's produce requests timed",
              Duration.ofSeconds(30));
      assertThat(metrics.sum("faultline_agent_errors_total", Map.of()))
          .as("suppressed agent errors")
          .isZero();
      StartupChecks.assertStartupBlockedBelowATenth(metrics);
    }
  }

  private static WatchedChild start(KafkaCluster kafka, String name, Integer port)
      throws Exception {
    Path dir = TestPaths.workDir("streams-" + name);
    Path props = dir.resolve("streams.properties");
    Files.writeString(
        props,
        String.join(
            "\n",
            "bootstrap.servers=" + kafka.bootstrapServers(),
            "application.id=wordcount-" + UUID.randomUUID().toString().substring(0, 8),
            "state.dir=" + dir.resolve("state"),
            ""));
    Path docker = TestPaths.kafkaDockerDir();
    ChildJvm jvm =
        ChildJvm.on(Jdk.current())
            .option("-Dlog4j2.configurationFile=" + docker.resolve("log4j2.properties"))
            .classPath(docker.resolve("target/broker-libs").resolve("*"))
            .classPath(OpenTelemetryAgentOrderTest.realWorld("streams").resolve("*"));
    if (port == null) {
      jvm.withoutAgent();
    } else {
      jvm.agentArgs("prometheus.port=" + port);
    }
    return WatchedChild.start(
        "streams-wordcount-" + name,
        jvm,
        "org.apache.kafka.streams.examples.wordcount.WordCountDemo",
        props.toString());
  }

  /**
   * Sends a line of words of this run's own and waits for their count in the output topic; seconds
   * from the child's start.
   */
  private static double awaitCount(KafkaCluster kafka, WatchedChild child, Duration timeout)
      throws Exception {
    long start = System.nanoTime() - Math.round(child.secondsSinceStart() * 1e9);
    String word = "w" + UUID.randomUUID().toString().replace("-", "");
    Properties p = kafka.clientProperties(Map.of());
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      producer
          .send(new ProducerRecord<>(INPUT, word + " " + word + " other"))
          .get(30, TimeUnit.SECONDS);
    }
    Properties c =
        kafka.clientProperties(
            Map.of(
                ConsumerConfig.GROUP_ID_CONFIG,
                "check-" + word,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                "earliest"));
    try (KafkaConsumer<String, Long> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new LongDeserializer())) {
      consumer.subscribe(List.of(OUTPUT));
      long deadline = start + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        for (var r : consumer.poll(Duration.ofMillis(200))) {
          if (r.key().equals(word) && r.value() == 2L) {
            return (System.nanoTime() - start) / 1e9;
          }
        }
        if (!child.isAlive()) {
          throw new AssertionError("WordCountDemo exited:\n" + child.output());
        }
      }
    }
    throw child.stuck("the count of " + word + " within " + timeout.toSeconds() + " s");
  }

  private static void ensureTopics(KafkaCluster kafka) throws Exception {
    try (Admin admin = Admin.create(kafka.clientProperties(Map.of()))) {
      for (String topic : List.of(INPUT, OUTPUT)) {
        try {
          admin
              .createTopics(List.of(new NewTopic(topic, 1, (short) kafka.nodes().size())))
              .all()
              .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
    }
  }
}
