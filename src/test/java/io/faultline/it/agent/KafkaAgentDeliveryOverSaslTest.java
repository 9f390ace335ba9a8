package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.net.OutputQueueIoctl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Delivery is split from the broker's response on a SASL_PLAINTEXT connection too. The tracker
 * counts the requests' bytes, not the authentication exchange before them, so TCP_INFO's total of
 * acknowledged bytes would place every request early; the delivery sample reads the kernel's
 * unacknowledged bytes ({@code SIOCOUTQ}) instead, which bytes acknowledged before the count began
 * do not change. A real broker with a PLAINTEXT and a SASL_PLAINTEXT listener; the same
 * application, with the agent sampling every send ({@code delivery-after=0ms}), once through each:
 * both runs split their produce requests' delivery from the response.
 */
class KafkaAgentDeliveryOverSaslTest {

  private static final String PHASE = "faultline_kafka_request_phase_seconds";
  private static final int RECORDS = 200;
  private static final String JAAS =
      "org.apache.kafka.common.security.plain.PlainLoginModule required"
          + " username=\"faultline\" password=\"faultline-secret\"";

  @Test
  void saslPlaintextConnectionsHaveTheirDeliverySampled() throws Exception {
    assumeTrue(OutputQueueIoctl.isKnownHere(), "SIOCOUTQ's request number is known on this CPU");
    KafkaBrokerChild.Node node = KafkaBrokerChild.Node.single();
    int saslPort = Http.freePort();
    String plaintext = "127.0.0.1:" + node.brokerPort();
    String sasl = "127.0.0.1:" + saslPort;
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put(
        "listeners",
        "PLAINTEXT://"
            + plaintext
            + ",SASL_PLAINTEXT://"
            + sasl
            + ",CONTROLLER://127.0.0.1:"
            + node.controllerPort());
    overrides.put("advertised.listeners", "PLAINTEXT://" + plaintext + ",SASL_PLAINTEXT://" + sasl);
    overrides.put(
        "listener.security.protocol.map",
        "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
    overrides.put("sasl.enabled.mechanisms", "PLAIN");
    overrides.put(
        "listener.name.sasl_plaintext.plain.sasl.jaas.config",
        JAAS + " user_faultline=\"faultline-secret\";");
    try (KafkaBrokerChild broker = KafkaBrokerChild.start("sasl", null, node, overrides)) {
      broker.awaitStarted(Duration.ofSeconds(120));

      PrometheusText overPlaintext = produceAndScrape(plaintext, "-");
      PrometheusText overSasl =
          produceAndScrape(
              sasl,
              "security.protocol=SASL_PLAINTEXT,sasl.mechanism=PLAIN,sasl.jaas.config="
                  + JAAS
                  + ";");

      Map<String, String> produce = Map.of("api", "produce", "client_type", "producer");
      double plaintextDeliveries = count(overPlaintext, produce, "delivery");
      assertThat(plaintextDeliveries)
          .as("PLAINTEXT: produce requests with their delivery sampled")
          .isGreaterThan(0);

      double saslDeliveries = count(overSasl, produce, "delivery");
      assertThat(count(overSasl, produce, "transmit"))
          .as("SASL: produce requests timed")
          .isGreaterThanOrEqualTo(RECORDS / 20.0);
      assertThat(saslDeliveries)
          .as("SASL: produce requests with their delivery sampled")
          .isGreaterThanOrEqualTo(RECORDS / 20.0 - 1);
      assertThat(count(overSasl, produce, "response")).isEqualTo(saslDeliveries);
      System.out.printf(
          "delivery over PLAINTEXT: %.0f produce requests split; over SASL_PLAINTEXT: %.0f split,"
              + " %.0f merged%n",
          plaintextDeliveries, saslDeliveries, count(overSasl, produce, "response_incl_delivery"));
    }
  }

  /** Runs the application with the agent against {@code bootstrap}; its /metrics once done. */
  private static PrometheusText produceAndScrape(String bootstrap, String clientSettings)
      throws Exception {
    String topic = "sasl-" + UUID.randomUUID().toString().substring(0, 8);
    int port = Http.freePort();
    Path ready = KafkaTraffic.readyFile();
    ChildJvm child =
        KafkaTraffic.withClients(
            ChildJvm.on(Jdk.current())
                .agentArgs("prometheus.port=" + port + ",kafka.phases.delivery-after=0ms"));
    try (ChildJvm.Running running =
        child.start(
            "io.faultline.it.agent.app.KafkaTrafficApp",
            bootstrap,
            topic,
            Integer.toString(RECORDS),
            "2000",
            ready.toString(),
            "-",
            clientSettings)) {
      KafkaTraffic.awaitReady(running, ready);
      assertThat(Files.readString(ready)).isEqualTo("produced=" + RECORDS + " consumed=" + RECORDS);
      String scrape =
          Http.awaitOk("http://127.0.0.1:" + port + "/metrics", Duration.ofSeconds(10)).body();
      ChildJvm.save(
          "delivery-over-" + (clientSettings.equals("-") ? "plaintext" : "sasl") + ".metrics.txt",
          scrape);
      running.send("stop");
      running.awaitExit(60).assertCleanExit();
      return PrometheusText.parse(scrape);
    }
  }

  private static double count(PrometheusText metrics, Map<String, String> labels, String phase) {
    Map<String, String> m = new LinkedHashMap<>(labels);
    m.put("phase", phase);
    return metrics.sum(PHASE + "_count", m);
  }
}
