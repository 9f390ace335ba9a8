package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.net.TcpInfoReader;
import io.faultline.it.servers.Brokers;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Tencent CKafka incident's cure, automated: the broker container strips SYN timestamps under
 * forced SYN cookies ({@link LostWindowScaleRule}), so the idempotent producer in the child JVM
 * (with {@code -javaagent:}) connects without window scaling and, sending 256 KB requests, runs
 * into the 64 KB window. With {@code kafka.recycle=on} the agent closes that connection through the
 * client's own disconnect path; the rule is lifted as soon as {@code KAFKA_WINDOW_SCALING_OFF} is
 * seen (the cause went away, as it did when the Tencent CKafka incident's task was restarted), so
 * the reconnect gets window scaling back — and every record arrives exactly once. With recycling
 * off the same connection is only reported.
 */
@ExtendWith(RealServers.class)
@RequiresDocker("the SYN-cookie rule goes into the broker container's own network namespace")
class ConnectionRecyclingOnRealBrokerTest {

  private static final String RECYCLES = "faultline_kafka_connection_recycles_decisions_total";
  private static final String SCALING = "faultline_kafka_connection_window_scaling_boolean";
  private static final java.util.regex.Pattern NODE_1_SCALING_OFF =
      java.util.regex.Pattern.compile(
          "\"id\":\"KAFKA_WINDOW_SCALING_OFF\"[^}]*?\"subject\":\"[^\"]*node 1 \\(");
  private static final int RECORDS = 240;
  private static final int SIZE = 256 * 1024;
  private static final int PER_SECOND = 12;

  @Test
  void aCrippledConnectionIsRecycledOnceAndNothingIsLostOrDuplicated(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka) throws Exception {
    Run run = run(kafka, true);
    assertThat(run.recycled).as("connections to node 1 recycled (min-interval 60 s)").isEqualTo(1);
    assertThat(run.stderr)
        .contains(
            "faultline: recycling the connection of Kafka client idempotent-producer to node 1");
    assertThat(run.scalingNode1)
        .as("window scaling of the connection to node 1 after the recycle")
        .isEqualTo(1.0);
    assertThat(run.consumed).as("records consumed").isEqualTo(RECORDS);
    assertThat(run.distinctKeys)
        .as("distinct keys: nothing lost, nothing duplicated")
        .isEqualTo(RECORDS);
  }

  @Test
  void withRecyclingOffTheConnectionIsOnlyReported(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka) throws Exception {
    Run run = run(kafka, false);
    assertThat(run.recycled).as("nothing closed").isZero();
    assertThat(run.wouldRecycle).as("samples that would have recycled").isGreaterThan(0);
    assertThat(run.stderr).doesNotContain("faultline: recycling the connection");
    assertThat(run.scalingNode1).as("still the crippled connection").isEqualTo(0.0);
    assertThat(run.consumed).isEqualTo(RECORDS);
    assertThat(run.distinctKeys).isEqualTo(RECORDS);
  }

  private record Run(
      double recycled,
      double wouldRecycle,
      double scalingNode1,
      long consumed,
      long distinctKeys,
      String stderr) {}

  private Run run(KafkaCluster kafka, boolean recycle) throws Exception {
    assumeTrue(TcpInfoReader.create().isSupported(), "TCP_INFO is read only on Linux");
    assumeTrue(LostWindowScaleRule.available(), "needs root, nsenter and nft");
    String topic = "recycle-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    int port = Http.freePort();
    String base = "http://127.0.0.1:" + port;
    Path ready = Files.createTempFile("idempotent", ".ready");
    Files.delete(ready);
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs(
                "prometheus.port="
                    + port
                    + ",kafka.tcp.interval=1s,kafka.recycle="
                    + (recycle ? "on" : "warn")
                    + ",kafka.recycle.samples=3,kafka.recycle.min-interval=60s")
            .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
    String label = recycle ? "on" : "warn";
    try (LostWindowScaleRule rule = LostWindowScaleRule.on(kafka.node(1));
        ChildJvm.Running running =
            child.start(
                "io.faultline.it.agent.app.IdempotentProducerApp",
                kafka.bootstrapServers(),
                topic,
                Integer.toString(RECORDS),
                Integer.toString(SIZE),
                Integer.toString(PER_SECOND),
                ready.toString())) {
      long started = System.nanoTime();
      long deadline = started + Duration.ofSeconds(180).toNanos();
      long seenAt = -1;
      while (!Files.exists(ready) && System.nanoTime() < deadline && running.isAlive()) {
        if (seenAt < 0 && NODE_1_SCALING_OFF.matcher(body(base + "/faultline/findings")).find()) {
          seenAt = System.nanoTime();
          System.out.printf(
              "recycle=%s: KAFKA_WINDOW_SCALING_OFF for node 1 after %.1f s%n",
              label, (seenAt - started) / 1e9);
          if (recycle) {
            // The cause goes away (only once node 1's connection is crippled: the bootstrap
            // connection is crippled first); the crippled connection stays until recycled.
            rule.lift();
          }
        }
        Thread.sleep(200);
      }
      assertThat(seenAt).as("KAFKA_WINDOW_SCALING_OFF seen for node 1").isPositive();
      assertThat(ready).as("the producer finished").exists();
      assertThat(Files.readString(ready)).isEqualTo("acked=" + RECORDS + " failed=0");
      // Until node 1's connection, recycled or not, has been sampled with its window scaling as
      // the mode leaves it: restored after a recycle, still off without one.
      double expectedScaling = recycle ? 1 : 0;
      String scrape =
          Http.awaitMetrics(
              base + "/metrics",
              Duration.ofSeconds(10),
              m ->
                  m.find(SCALING, Map.of("node_id", "1")).stream()
                      .anyMatch(s -> s.value() == expectedScaling));
      ChildJvm.save("recycle-" + label + ".metrics.txt", scrape);
      PrometheusText metrics = PrometheusText.parse(scrape);
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60);
      ChildJvm.save("recycle-" + label + ".stderr.txt", result.stderr());
      result.assertCleanExit();
      assertThat(metrics.sum("faultline_agent_errors_total", Map.of())).isZero();

      Map<String, Integer> keys = consume(kafka, topic);
      long consumed = keys.values().stream().mapToLong(Integer::longValue).sum();
      var scaling = metrics.find(SCALING, Map.of("node_id", "1"));
      assertThat(scaling).as("window scaling gauge of node 1").hasSize(1);
      Run run =
          new Run(
              metrics.sum(RECYCLES, Map.of("node_id", "1", "outcome", "recycled")),
              metrics.sum(RECYCLES, Map.of("node_id", "1", "outcome", "would_recycle")),
              scaling.get(0).value(),
              consumed,
              keys.size(),
              result.stderr());
      System.out.printf(
          "recycle=%s: recycled=%.0f would_recycle=%.0f rate_limited=%.0f window_scaling(node 1)=%.0f"
              + " acked=%d consumed=%d distinct_keys=%d%n",
          label,
          run.recycled,
          run.wouldRecycle,
          metrics.sum(RECYCLES, Map.of("node_id", "1", "outcome", "rate_limited")),
          run.scalingNode1,
          RECORDS,
          consumed,
          keys.size());
      result
          .stderr()
          .lines()
          .filter(l -> l.contains("recycling the connection"))
          .forEach(l -> System.out.println("  " + l));
      return run;
    }
  }

  private static Map<String, Integer> consume(KafkaCluster kafka, String topic) {
    Map<String, Integer> keys = new HashMap<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(
            kafka.clientProperties(
                Map.of(
                    "group.id", "count-" + topic,
                    "auto.offset.reset", "earliest",
                    "enable.auto.commit", "false")),
            new StringDeserializer(),
            new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      int emptyAfterAll = 0;
      while (System.nanoTime() < deadline && emptyAfterAll < 3) {
        var records = consumer.poll(Duration.ofMillis(500));
        for (ConsumerRecord<String, byte[]> r : records) {
          keys.merge(r.key(), 1, Integer::sum);
        }
        int total = keys.values().stream().mapToInt(Integer::intValue).sum();
        if (records.isEmpty() && total >= RECORDS) {
          emptyAfterAll++; // a few empty polls after everything: duplicates would have shown
        }
      }
    }
    return keys;
  }

  private static String body(String url) throws InterruptedException {
    try {
      var response = Http.get(url);
      return response.statusCode() == 200 ? response.body() : "";
    } catch (IOException e) {
      return "";
    }
  }
}
