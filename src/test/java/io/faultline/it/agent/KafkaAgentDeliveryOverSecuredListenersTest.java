package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.net.OutputQueueIoctl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delivery is split from the broker's response on SASL_PLAINTEXT and TLS connections too. The
 * tracker counts the bytes each request put on the wire, not what went before them (the SASL
 * exchange, the TLS handshake), so TCP_INFO's total of acknowledged bytes would place every request
 * early; the delivery sample reads the kernel's unacknowledged bytes ({@code SIOCOUTQ}) instead,
 * which bytes acknowledged before the count began do not change. Over TLS the count is of the
 * records {@code SslTransportLayer.flush} writes. A real broker with a PLAINTEXT, a SASL_PLAINTEXT
 * and an SSL listener; the same application, with the agent sampling every send ({@code
 * delivery-after=0ms}), once through each: every run splits its produce requests' delivery from the
 * response.
 */
class KafkaAgentDeliveryOverSecuredListenersTest {

  private static final String PHASE = "faultline_kafka_request_phase_seconds";
  private static final int RECORDS = 200;
  private static final String JAAS =
      "org.apache.kafka.common.security.plain.PlainLoginModule required"
          + " username=\"faultline\" password=\"faultline-secret\"";
  private static final String STORE_PASSWORD = "faultline-store";

  @BeforeEach
  void needsTheOutputQueueRead() {
    assumeTrue(OutputQueueIoctl.isKnownHere(), "SIOCOUTQ's request number is known on this CPU");
  }

  @Test
  void saslAndTlsConnectionsHaveTheirDeliverySampled(@TempDir Path stores) throws Exception {
    KafkaBrokerChild.Node node = KafkaBrokerChild.Node.single();
    Listeners listeners = Listeners.on(node, stores);
    try (KafkaBrokerChild broker =
        KafkaBrokerChild.start("secured", null, node, listeners.overrides())) {
      broker.awaitStarted(Duration.ofSeconds(120));

      PrometheusText overPlaintext = produceAndScrape(listeners.plaintext(), "plaintext", "-");
      PrometheusText overSasl =
          produceAndScrape(
              listeners.sasl(),
              "sasl",
              "security.protocol=SASL_PLAINTEXT,sasl.mechanism=PLAIN,sasl.jaas.config="
                  + JAAS
                  + ";");
      PrometheusText overTls =
          produceAndScrape(listeners.tls(), "tls", tlsClient(listeners.trustStore()));

      Map<String, String> produce = Map.of("api", "produce", "client_type", "producer");
      StringBuilder summary = new StringBuilder("produce requests with delivery split / merged:");
      for (var run :
          Map.of("PLAINTEXT", overPlaintext, "SASL_PLAINTEXT", overSasl, "SSL", overTls)
              .entrySet()) {
        PrometheusText metrics = run.getValue();
        double split = count(metrics, produce, "delivery");
        assertThat(count(metrics, produce, "transmit"))
            .as("%s: produce requests timed", run.getKey())
            .isGreaterThanOrEqualTo(RECORDS / 20.0);
        assertThat(split)
            .as("%s: produce requests with their delivery sampled", run.getKey())
            .isGreaterThanOrEqualTo(3); // 13-28 of 30 in runs here: the rest answered first
        assertThat(count(metrics, produce, "response")).isEqualTo(split);
        summary.append(
            String.format(
                " %s %.0f / %.0f;",
                run.getKey(), split, count(metrics, produce, "response_incl_delivery")));
      }
      System.out.println(summary);
    }
  }

  /**
   * Over TLS a request held up before the broker has it waits in delivery, as over PLAINTEXT. The
   * broker process is stopped for three seconds while a producer sends a 64 KB record ten times a
   * second with a large send buffer: the broker's socket takes what fits its receive buffer (those
   * requests wait for their response), then TCP's window closes and the next requests, whole in the
   * producer's send buffer, stay unacknowledged until the broker runs again. Their delivery is the
   * pause; a count that placed their last bytes early would put it in their response instead.
   */
  @Test
  void aRequestHeldUpBeforeTheBrokerHasItWaitsInDeliveryOverTls(@TempDir Path stores)
      throws Exception {
    KafkaBrokerChild.Node node = KafkaBrokerChild.Node.single();
    Listeners listeners = Listeners.on(node, stores);
    try (KafkaBrokerChild broker =
        KafkaBrokerChild.start("paused", null, node, listeners.overrides())) {
      broker.awaitStarted(Duration.ofSeconds(120));
      StringBuilder summary = new StringBuilder("broker paused 3 s, produce requests' phases:");
      Map<String, Double> deliveries = new TreeMap<>();
      Map<String, Double> merged = new TreeMap<>();
      for (var run :
          Map.of(
                  "PLAINTEXT",
                  List.of(listeners.plaintext(), "-"),
                  "SSL",
                  List.of(listeners.tls(), tlsClient(listeners.trustStore())))
              .entrySet()) {
        PrometheusText metrics =
            pausedProduce(broker, run.getValue().get(0), run.getValue().get(1));
        Map<String, String> produce = Map.of("api", "produce", "client_type", "producer");
        double delivery = seconds(metrics, produce, "delivery");
        double response = seconds(metrics, produce, "response");
        summary.append(
            String.format(
                Locale.ROOT,
                " %s transmit %.2f s, delivery %.2f s, response %.2f s, merged %.2f s;",
                run.getKey(),
                seconds(metrics, produce, "transmit"),
                delivery,
                response,
                seconds(metrics, produce, "response_incl_delivery")));
        deliveries.put(run.getKey(), delivery);
        merged.put(run.getKey(), seconds(metrics, produce, "response_incl_delivery"));
      }
      System.out.println(summary);
      assertThat(deliveries)
          .as("the requests that waited in the send buffer: their delivery, s")
          .allSatisfy((listener, delivery) -> assertThat(delivery).isGreaterThan(1.5));
      assertThat(merged)
          .as("delivery merged into the response, s: none of the held requests")
          .allSatisfy((listener, seconds) -> assertThat(seconds).isLessThan(1.5));
    }
  }

  /** Produces for 10 s through {@code bootstrap}, the broker stopped from 4 s to 7 s. */
  private static PrometheusText pausedProduce(
      KafkaBrokerChild broker, String bootstrap, String clientSettings) throws Exception {
    int port = Http.freePort();
    Path ready = KafkaTraffic.readyFile();
    // The default wake budget: after three seconds held it looks every 5 ms, and on PLAINTEXT a
    // held request's acknowledgement and response can come within those 5 ms. The delivery must
    // still show, placed between the sampler's last look and the response.
    try (ChildJvm.Running running =
        KafkaTraffic.withClients(ChildJvm.on(Jdk.current()).agentArgs("prometheus.port=" + port))
            .start(
                "io.faultline.it.agent.app.PacedProducerApp",
                bootstrap,
                "paused-" + UUID.randomUUID().toString().substring(0, 8),
                "1",
                Integer.toString(64 * 1024),
                "10",
                "10",
                ready.toString(),
                "send.buffer.bytes=1048576"
                    + (clientSettings.equals("-") ? "" : "," + clientSettings))) {
      Thread.sleep(4_000);
      signal("STOP", broker.child.pid());
      try {
        Thread.sleep(3_000);
      } finally {
        signal("CONT", broker.child.pid());
      }
      KafkaTraffic.awaitReady(running, ready);
      assertThat(Files.readString(ready)).isEqualTo("acked=100 failed=0");
      String scrape =
          Http.awaitOk("http://127.0.0.1:" + port + "/metrics", Duration.ofSeconds(10)).body();
      running.send("stop");
      running.awaitExit(60).assertCleanExit();
      return PrometheusText.parse(scrape);
    }
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
  }

  /**
   * A broker's PLAINTEXT, SASL_PLAINTEXT and SSL listeners on 127.0.0.1: their addresses, the
   * broker's settings for them, and the trust store a TLS client needs.
   */
  private record Listeners(
      String plaintext, String sasl, String tls, Path trustStore, Map<String, String> overrides) {

    static Listeners on(KafkaBrokerChild.Node node, Path stores) throws Exception {
      Path keyStore = stores.resolve("broker.p12");
      Path trustStore = stores.resolve("trust.p12");
      makeStores(keyStore, trustStore);
      String plaintext = "127.0.0.1:" + node.brokerPort();
      String sasl = "127.0.0.1:" + Http.freePort();
      String tls = "127.0.0.1:" + Http.freePort();
      Map<String, String> overrides = new LinkedHashMap<>();
      overrides.put(
          "listeners",
          "PLAINTEXT://"
              + plaintext
              + ",SASL_PLAINTEXT://"
              + sasl
              + ",SSL://"
              + tls
              + ",CONTROLLER://127.0.0.1:"
              + node.controllerPort());
      overrides.put(
          "advertised.listeners",
          "PLAINTEXT://" + plaintext + ",SASL_PLAINTEXT://" + sasl + ",SSL://" + tls);
      overrides.put(
          "listener.security.protocol.map",
          "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,CONTROLLER:PLAINTEXT");
      overrides.put("sasl.enabled.mechanisms", "PLAIN");
      overrides.put(
          "listener.name.sasl_plaintext.plain.sasl.jaas.config",
          JAAS + " user_faultline=\"faultline-secret\";");
      overrides.put("ssl.keystore.type", "PKCS12");
      overrides.put("ssl.keystore.location", keyStore.toString());
      overrides.put("ssl.keystore.password", STORE_PASSWORD);
      overrides.put("ssl.key.password", STORE_PASSWORD);
      return new Listeners(plaintext, sasl, tls, trustStore, overrides);
    }
  }

  /** A client's settings for the SSL listener, as the apps take them. */
  private static String tlsClient(Path trustStore) {
    return "security.protocol=SSL,ssl.truststore.type=PKCS12,ssl.truststore.location="
        + trustStore
        + ",ssl.truststore.password="
        + STORE_PASSWORD;
  }

  /** A broker key pair for 127.0.0.1 in {@code keyStore}, its certificate in {@code trustStore}. */
  private static void makeStores(Path keyStore, Path trustStore) throws Exception {
    Path certificate = keyStore.resolveSibling("broker.crt");
    keytool(
        "-genkeypair",
        "-alias",
        "broker",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        "CN=127.0.0.1",
        "-ext",
        "SAN=ip:127.0.0.1",
        "-storetype",
        "PKCS12",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        STORE_PASSWORD,
        "-keypass",
        STORE_PASSWORD);
    keytool(
        "-exportcert",
        "-alias",
        "broker",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        STORE_PASSWORD,
        "-file",
        certificate.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "broker",
        "-file",
        certificate.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        STORE_PASSWORD);
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Jdk.current().home().resolve("bin").resolve("keytool").toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("keytool %s: %s", args[0], output).isZero();
  }

  /** Runs the application with the agent against {@code bootstrap}; its /metrics once done. */
  private static PrometheusText produceAndScrape(
      String bootstrap, String listener, String clientSettings) throws Exception {
    String topic = listener + "-" + UUID.randomUUID().toString().substring(0, 8);
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
      ChildJvm.save("delivery-over-" + listener + ".metrics.txt", scrape);
      running.send("stop");
      running.awaitExit(60).assertCleanExit();
      return PrometheusText.parse(scrape);
    }
  }

  private static double seconds(PrometheusText metrics, Map<String, String> labels, String phase) {
    Map<String, String> m = new LinkedHashMap<>(labels);
    m.put("phase", phase);
    return metrics.sum(PHASE + "_sum", m);
  }

  private static double count(PrometheusText metrics, Map<String, String> labels, String phase) {
    Map<String, String> m = new LinkedHashMap<>(labels);
    m.put("phase", phase);
    return metrics.sum(PHASE + "_count", m);
  }
}
