package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent's JDK Flight Recorder events in a recording made the usual way, {@code
 * -XX:StartFlightRecording}, of a producer and a consumer on a real broker: with JFR's own {@code
 * default} settings the findings in force are there ({@code io.faultline.ActiveFinding}, however
 * early the host doctor raised them) and no request is (none is slower than the default {@code
 * slowerThan} of 1 s); with {@code slowerThan} set to {@code 0 ms} in a settings file every request
 * is, with its node, API and phases.
 */
@ExtendWith(RealServers.class)
@Timeout(240)
class JfrAgentEventsTest {

  @Test
  void aPlainRecordingHasTheFindingsAndTheSettingBringsTheRequests(KafkaCluster kafka)
      throws Exception {
    String topic = "jfr-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);

    List<RecordedEvent> plain = record(kafka, topic, "settings=default");
    // The host doctor's first run may come before Flight Recorder has started the recording: its
    // findings' changes are then not in it, but the findings in force always are.
    assertThat(named(plain, "io.faultline.ActiveFinding"))
        .as("the findings in force (the host doctor's at least)")
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e.getInstant("since")).isBeforeOrEqualTo(e.getStartTime()));
    assertThat(named(plain, "io.faultline.Finding"))
        .allSatisfy(e -> assertThat(e.getString("change")).isIn("raised", "updated", "cleared"));
    assertThat(named(plain, "io.faultline.KafkaRequest")).as("no request is 1 s slow").isEmpty();

    Path settings = Files.createTempFile("faultline-every-request", ".jfc");
    Files.writeString(
        settings,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<configuration version=\"2.0\" label=\"every Kafka request\">\n"
            + "  <event name=\"io.faultline.KafkaRequest\">\n"
            + "    <setting name=\"enabled\">true</setting>\n"
            + "    <setting name=\"slowerThan\">0 ms</setting>\n"
            + "  </event>\n"
            + "</configuration>\n");
    List<RecordedEvent> every = record(kafka, topic, "settings=" + settings);
    List<RecordedEvent> requests = named(every, "io.faultline.KafkaRequest");
    assertThat(requests).extracting(e -> e.getString("api")).contains("produce", "fetch");
    RecordedEvent produce =
        requests.stream().filter(e -> e.getString("api").equals("produce")).findFirst().get();
    assertThat(produce.getString("clientType")).isEqualTo("producer");
    assertThat(produce.getString("node")).matches("\\d+");
    Duration latency = produce.getDuration("latency");
    assertThat(latency).isPositive();
    assertThat(produce.getDuration("queue").plus(produce.getDuration("transmit")))
        .isLessThanOrEqualTo(latency);
    assertThat(produce.getEventType().getCategoryNames()).containsExactly("Faultline", "Kafka");
  }

  /** Runs the producer and consumer with a recording started by the JVM option; its events. */
  private static List<RecordedEvent> record(KafkaCluster kafka, String topic, String settings)
      throws Exception {
    Path file = Files.createTempFile("faultline-agent", ".jfr");
    Path ready = KafkaTraffic.readyFile();
    int port = Http.freePort();
    ChildJvm child =
        KafkaTraffic.withClients(
            ChildJvm.on(Jdk.current())
                .option("-XX:StartFlightRecording:" + settings + ",filename=" + file)
                .agentArgs("prometheus.port=" + port));
    try (ChildJvm.Running running = KafkaTraffic.start(child, kafka, topic, 50, 5000, ready)) {
      KafkaTraffic.awaitReady(running, ready);
      // The host doctor's first pass runs on the agent's scheduler after its start: on a fast
      // broker the traffic can be over before it, and the recording would end without its findings.
      Http.awaitBodyContaining(
          "http://127.0.0.1:" + port + "/faultline/findings", "\"id\"", Duration.ofSeconds(60));
      running.send("stop");
      running.awaitExit(60).assertCleanExit();
    }
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    Files.deleteIfExists(file);
    return events;
  }

  private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
    return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
  }
}
