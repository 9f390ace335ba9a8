package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code KafkaTrafficApp} as a child JVM: its class path, its start against a real cluster, and the
 * wait for the file it creates once it has produced and consumed.
 */
final class KafkaTraffic {

  private KafkaTraffic() {}

  /** {@code child} with kafka-clients and SLF4J on its class path. */
  static ChildJvm withClients(ChildJvm child) {
    return child
        .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
        .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
  }

  /** A path for the ready file, not yet created. */
  static Path readyFile() throws java.io.IOException {
    Path ready = Files.createTempFile("kafka-app", ".ready");
    Files.delete(ready);
    return ready;
  }

  /** Starts the app: {@code records} records of {@code size} bytes to {@code topic}. */
  static ChildJvm.Running start(
      ChildJvm child, KafkaCluster kafka, String topic, int records, int size, Path ready) {
    return child.start(
        "io.faultline.it.agent.app.KafkaTrafficApp",
        kafka.bootstrapServers(),
        topic,
        Integer.toString(records),
        Integer.toString(size),
        ready.toString());
  }

  /** Waits (up to two minutes) until the app has produced and consumed; fails if it never does. */
  static void awaitReady(ChildJvm.Running running, Path ready) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (!Files.exists(ready) && System.nanoTime() < deadline && running.isAlive()) {
      Thread.sleep(200);
    }
    assertThat(ready).as("the application produced and consumed").exists();
  }
}
