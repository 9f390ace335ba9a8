package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.finding.Finding;
import io.faultline.kafka.connection.ConnectionReport;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The LINE incident from the broker operators' side, on a real broker with the agent and clients
 * without it. The broker runs in a network namespace of its own ({@link VethNamespace}); there SYN
 * cookies are forced and an nftables rule strips the timestamp option from SYNs to the Kafka
 * listener, as after a reconnect storm on a kernel without the fix: a connection made then has no
 * window scaling on either side. This JVM's clients (no agent) connect from the host: one producer
 * before the rule, a producer and a consumer after it. The agent on the broker must count exactly
 * the connections the clients themselves see without scaling, name the listener, the client address
 * and the ceiling in {@code CLIENTS_WITHOUT_WINDOW_SCALING}, and clear it once the rule is lifted
 * and the clients have reconnected. Needs root, iproute2 and nft.
 */
@Timeout(300)
class BrokerSeesClientsWithoutWindowScalingTest {

  private static final int KAFKA_PORT = 9092;
  private static final int AGENT_PORT = 9404;
  private static final Duration SEEN_WITHIN = Duration.ofSeconds(30);

  @Test
  void theBrokerNamesItsCrippledClientsAndClearsWhenTheyReconnect() throws Exception {
    assumeTrue(VethNamespace.available(), "needs root and iproute2 (ip netns)");
    assumeTrue(works("nft", "--version") && works("curl", "--version"), "needs nft and curl");
    try (VethNamespace ns = VethNamespace.create("flbroker")) {
      KafkaBrokerChild.Node node =
          new KafkaBrokerChild.Node(
              1, Uuid.randomUuid().toString(), "1@127.0.0.1:9093", ns.inside(), KAFKA_PORT, 9093);
      String agentArgs =
          "prometheus.host=0.0.0.0,prometheus.port=" + AGENT_PORT + ",doctor.clients-interval=1s";
      try (KafkaBrokerChild broker =
          KafkaBrokerChild.start("wscale-lab", agentArgs, node, ns.prefix())) {
        broker.awaitStarted(Duration.ofSeconds(120));
        String base = "http://" + ns.inside() + ":" + AGENT_PORT;
        // The agent's endpoint opens once the broker's start has settled.
        Http.awaitOk(base + "/metrics", Duration.ofSeconds(60));
        String topic = "wscale-lab-" + Uuid.randomUuid().toString().substring(0, 8);
        broker.createTopic(topic, (short) 1);
        InetSocketAddress listener = new InetSocketAddress(ns.inside(), KAFKA_PORT);

        try (KafkaProducer<String, String> before = producer(broker, "lab-before")) {
          before.send(new ProducerRecord<>(topic, "before")).get(30, TimeUnit.SECONDS);
          PrometheusText scaled =
              awaitAccepted(base, m -> accepted(m) > 0 && withoutScaling(m) == 0);
          assertThat(withoutScaling(scaled)).as("connections without scaling, no rule").isZero();

          long ruleAt = System.nanoTime();
          try (LostWindowScaleRule rule = LostWindowScaleRule.on(ns, KAFKA_PORT)) {
            int crippled;
            try (KafkaProducer<String, String> after = producer(broker, "lab-after");
                KafkaConsumer<String, String> consumer = consumer(broker, topic)) {
              for (int i = 0; i < 100; i++) {
                after.send(new ProducerRecord<>(topic, "after " + i));
              }
              after.flush();
              List<String> read = new ArrayList<>();
              long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
              while (read.size() < 101 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> read.add(r.value()));
              }
              assertThat(read).as("records read through crippled connections").hasSize(101);
              crippled = unscaledSeenByClients(listener);
              assertThat(crippled)
                  .as("this JVM's connections made after the rule, without scaling")
                  .isGreaterThanOrEqualTo(2);
              int expected = crippled;
              PrometheusText seen =
                  awaitAccepted(
                      base,
                      m -> withoutScaling(m) == unscaledSeenByClients(listener) && active(m) == 1);
              double detected = (System.nanoTime() - ruleAt) / 1e9;
              assertThat(withoutScaling(seen))
                  .as("connections without scaling, counted on the broker")
                  .isEqualTo(unscaledSeenByClients(listener));
              assertThat(accepted(seen))
                  .as("accepted connections: the crippled ones and the one from before")
                  .isGreaterThan(withoutScaling(seen));
              assertThat(active(seen)).as("CLIENTS_WITHOUT_WINDOW_SCALING active").isEqualTo(1);
              // The endpoint serves findings to its own host only: asked from the namespace.
              String message =
                  awaitFinding(ns, "CLIENTS_WITHOUT_WINDOW_SCALING", "lab-after-consumer at ");
              assertThat(message)
                  .contains("client connections accepted on port " + KAFKA_PORT)
                  .contains("each carries at most 65,535 bytes per round trip")
                  // By the client ids their requests carry, and their address.
                  .contains("lab-after at " + ns.outside() + " (")
                  .contains("lab-after-consumer at " + ns.outside() + " (")
                  .doesNotContain("lab-before");
              System.out.printf(
                  Locale.ROOT,
                  "BROKER-SIDE lab: %d of %d client connections without window scaling, seen"
                      + " %.1f s after the rule (sweep every 1 s); the clients saw %d%n%s%n",
                  withoutScaling(seen),
                  accepted(seen),
                  detected,
                  expected,
                  message);
            }
            // The crippled clients are gone; new handshakes are whole again.
            rule.lift();
          }

          long liftedAt = System.nanoTime();
          try (KafkaProducer<String, String> again = producer(broker, "lab-again")) {
            again.send(new ProducerRecord<>(topic, "again")).get(30, TimeUnit.SECONDS);
            assertThat(unscaledSeenByClients(listener))
                .as("this JVM's connections after the rule was lifted, without scaling")
                .isZero();
            PrometheusText cleared =
                awaitAccepted(
                    base, m -> accepted(m) >= 2 && withoutScaling(m) == 0 && active(m) == 0);
            assertThat(withoutScaling(cleared)).as("without scaling once reconnected").isZero();
            assertThat(active(cleared)).as("CLIENTS_WITHOUT_WINDOW_SCALING active").isZero();
            assertThat(broker.child.output())
                .contains(
                    "faultline: cleared CLIENTS_WITHOUT_WINDOW_SCALING about port " + KAFKA_PORT);
            System.out.printf(
                Locale.ROOT,
                "BROKER-SIDE lab: cleared %.1f s after the rule was lifted and the clients"
                    + " reconnected%n",
                (System.nanoTime() - liftedAt) / 1e9);
          }
        }
        PrometheusText last = PrometheusText.parse(Http.get(base + "/metrics").body());
        assertThat(last.sum("faultline_agent_errors_total", Map.of()))
            .as("suppressed agent errors")
            .isZero();
      }
    }
  }

  /** This JVM's connections to {@code listener} that the client side sees without scaling. */
  private static int unscaledSeenByClients(InetSocketAddress listener) {
    int n = 0;
    for (ConnectionReport.Entry e : ConnectionReport.of(List.of(listener)).entries()) {
      if (e.findings().stream().map(Finding::id).anyMatch("KAFKA_WINDOW_SCALING_OFF"::equals)) {
        n++;
      }
    }
    return n;
  }

  private static PrometheusText awaitAccepted(
      String base, java.util.function.Predicate<PrometheusText> done) throws Exception {
    long deadline = System.nanoTime() + SEEN_WITHIN.toNanos();
    PrometheusText last = PrometheusText.parse(Http.get(base + "/metrics").body());
    while (!done.test(last) && System.nanoTime() < deadline) {
      Thread.sleep(250);
      last = PrometheusText.parse(Http.get(base + "/metrics").body());
    }
    return last;
  }

  private static int accepted(PrometheusText m) {
    return (int)
        m.sum(
            "faultline_host_tcp_accepted_connections", Map.of("port", String.valueOf(KAFKA_PORT)));
  }

  private static int withoutScaling(PrometheusText m) {
    return (int)
        m.sum(
            "faultline_host_tcp_accepted_without_wscale_connections",
            Map.of("port", String.valueOf(KAFKA_PORT)));
  }

  private static int active(PrometheusText m) {
    return (int)
        m.sum("faultline_findings_active_findings", Map.of("id", "CLIENTS_WITHOUT_WINDOW_SCALING"));
  }

  /**
   * The findings JSON from the agent's endpoint, asked from inside the namespace (the endpoint
   * serves findings to its own host only), once it has {@code id} with {@code text}; the last
   * answer either way, for the assertions to judge.
   */
  private static String awaitFinding(VethNamespace ns, String id, String text) throws Exception {
    String url = "http://127.0.0.1:" + AGENT_PORT + "/faultline/findings";
    long deadline = System.nanoTime() + SEEN_WITHIN.toNanos();
    String json = ns.exec("curl", "-sf", url);
    while (!(json.contains(id) && json.contains(text)) && System.nanoTime() < deadline) {
      Thread.sleep(250);
      json = ns.exec("curl", "-sf", url);
    }
    return json;
  }

  private static KafkaProducer<String, String> producer(KafkaBrokerChild broker, String id) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, id);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
  }

  private static KafkaConsumer<String, String> consumer(KafkaBrokerChild broker, String topic) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap);
    c.put(ConsumerConfig.CLIENT_ID_CONFIG, "lab-after-consumer");
    c.put(ConsumerConfig.GROUP_ID_CONFIG, topic);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
    consumer.subscribe(List.of(topic));
    return consumer;
  }

  private static boolean works(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (Exception e) {
      return false;
    }
  }
}
