package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A connection storm on one listener of a real broker with the agent, the other listeners quiet.
 * The broker, in a network namespace of its own ({@link VethNamespace}: its kernel counters are its
 * own), has a client listener with a small backlog whose acceptor stops accepting once the
 * listener's {@code max.connections} is reached (Kafka's acceptor waits for a connection slot), an
 * inter-broker listener and a controller listener. A storm of plain TCP connections from this JVM
 * fills the client listener's accept queue and overflows it: the agent must show that listener's
 * queue at its limit, raise {@code LISTENER_QUEUE_FULL} for it alone while the namespace's {@code
 * ListenOverflows} climb, and clear it once the storm's connections close and the acceptor drains
 * the queue. Needs root and iproute2.
 */
@Timeout(300)
class BrokerListenerStormTest {

  private static final int CLIENT_PORT = 9092;
  private static final int CONTROLLER_PORT = 9093;
  private static final int INTERNAL_PORT = 9094;
  private static final int AGENT_PORT = 9404;
  private static final int BACKLOG = 8;
  private static final int STORM = 200;
  private static final String QUEUE = "faultline_host_tcp_listener_queue_connections";
  private static final String LIMIT = "faultline_host_tcp_listener_queue_limit_connections";
  private static final Duration SEEN_WITHIN = Duration.ofSeconds(30);

  @Test
  void aStormOnOneListenerIsAttributedToItAndClearsWhenDrained() throws Exception {
    assumeTrue(VethNamespace.available(), "needs root and iproute2 (ip netns)");
    try (VethNamespace ns = VethNamespace.create("flstorm")) {
      KafkaBrokerChild.Node node =
          new KafkaBrokerChild.Node(
              1,
              Uuid.randomUuid().toString(),
              "1@127.0.0.1:" + CONTROLLER_PORT,
              ns.inside(),
              CLIENT_PORT,
              CONTROLLER_PORT);
      String client = ns.inside() + ":" + CLIENT_PORT;
      Map<String, String> overrides =
          Map.of(
              "listeners",
              "PLAINTEXT://"
                  + client
                  + ",INTERNAL://127.0.0.1:"
                  + INTERNAL_PORT
                  + ",CONTROLLER://127.0.0.1:"
                  + CONTROLLER_PORT,
              "advertised.listeners",
              "PLAINTEXT://" + client + ",INTERNAL://127.0.0.1:" + INTERNAL_PORT,
              "listener.security.protocol.map",
              "PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT",
              "inter.broker.listener.name",
              "INTERNAL",
              "socket.listen.backlog.size",
              Integer.toString(BACKLOG),
              // Past this the acceptor waits for a slot instead of accepting: a slow acceptor.
              "listener.name.plaintext.max.connections",
              "4");
      String agentArgs =
          "prometheus.host=0.0.0.0,prometheus.port="
              + AGENT_PORT
              + ",doctor.listener-interval=200ms";
      try (KafkaBrokerChild broker =
          KafkaBrokerChild.start("storm-lab", agentArgs, node, overrides, ns.prefix())) {
        broker.awaitStarted(Duration.ofSeconds(120));
        String metrics = "http://" + ns.inside() + ":" + AGENT_PORT + "/metrics";
        PrometheusText quiet = await(metrics, m -> m.sum(LIMIT, port(CLIENT_PORT)) == BACKLOG);
        assertThat(quiet.sum(LIMIT, port(CLIENT_PORT)))
            .as("the client listener's queue limit (its backlog)")
            .isEqualTo(BACKLOG);
        assertThat(active(quiet)).as("LISTENER_QUEUE_FULL before the storm").isZero();
        double overflowsBefore = overflows(quiet);

        List<SocketChannel> storm = new ArrayList<>();
        long stormAt = System.nanoTime();
        PrometheusText full;
        try {
          InetSocketAddress target = new InetSocketAddress(ns.inside(), CLIENT_PORT);
          for (int i = 0; i < STORM; i++) {
            SocketChannel c = SocketChannel.open();
            c.configureBlocking(false);
            c.connect(target);
            storm.add(c);
          }
          // All at once, from one scrape: a scrape reads the finding and the gauges at different
          // moments, so a sample may land between them.
          full =
              await(
                  metrics,
                  m ->
                      active(m) == 1
                          && overflows(m) > overflowsBefore
                          && m.sum(QUEUE, port(CLIENT_PORT)) >= BACKLOG);
          assertThat(active(full)).as("LISTENER_QUEUE_FULL during the storm").isEqualTo(1);
          assertThat(full.sum(QUEUE, port(CLIENT_PORT)))
              .as("the client listener's queue during the storm")
              .isGreaterThanOrEqualTo(BACKLOG);
          assertThat(full.sum(QUEUE, port(INTERNAL_PORT)))
              .as("the inter-broker listener's queue")
              .isZero();
          assertThat(full.sum(QUEUE, port(CONTROLLER_PORT)))
              .as("the controller listener's queue")
              .isZero();
          assertThat(overflows(full)).as("ListenOverflows in the namespace").isGreaterThan(0);
          assertThat(broker.child.output())
              .contains("LISTENER_QUEUE_FULL about port " + CLIENT_PORT)
              .doesNotContain("LISTENER_QUEUE_FULL about port " + INTERNAL_PORT)
              .doesNotContain("LISTENER_QUEUE_FULL about port " + CONTROLLER_PORT);
          System.out.printf(
              Locale.ROOT,
              "BROKER-SIDE storm: %d connections at port %d (backlog %d): queue %.0f of %.0f,"
                  + " %.0f overflows, LISTENER_QUEUE_FULL %.1f s after the storm began%n",
              STORM,
              CLIENT_PORT,
              BACKLOG,
              full.sum(QUEUE, port(CLIENT_PORT)),
              full.sum(LIMIT, port(CLIENT_PORT)),
              overflows(full) - overflowsBefore,
              (System.nanoTime() - stormAt) / 1e9);
        } finally {
          for (SocketChannel c : storm) {
            c.close();
          }
        }

        long closedAt = System.nanoTime();
        PrometheusText drained =
            await(metrics, m -> active(m) == 0 && m.sum(QUEUE, port(CLIENT_PORT)) == 0);
        assertThat(active(drained)).as("LISTENER_QUEUE_FULL once drained").isZero();
        assertThat(broker.child.output())
            .contains("faultline: cleared LISTENER_QUEUE_FULL about port " + CLIENT_PORT);
        System.out.printf(
            Locale.ROOT,
            "BROKER-SIDE storm: cleared %.1f s after the storm's connections closed%n",
            (System.nanoTime() - closedAt) / 1e9);
        assertThat(drained.sum("faultline_agent_errors_total", Map.of()))
            .as("suppressed agent errors")
            .isZero();
        produceOne(broker);
      }
    }
  }

  /** The broker serves its clients again once the storm is over. */
  private static void produceOne(KafkaBrokerChild broker) throws Exception {
    String topic = "storm-lab-" + Uuid.randomUuid().toString().substring(0, 8);
    broker.createTopic(topic, (short) 1);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
      producer.send(new ProducerRecord<>(topic, "after the storm")).get(30, TimeUnit.SECONDS);
    }
  }

  private static Map<String, String> port(int port) {
    return Map.of("port", Integer.toString(port));
  }

  private static int active(PrometheusText m) {
    return (int) m.sum("faultline_findings_active_findings", Map.of("id", "LISTENER_QUEUE_FULL"));
  }

  /** The namespace's {@code ListenOverflows}, as the agent exports it. */
  private static double overflows(PrometheusText m) {
    double sum = 0;
    for (String name : m.namesStartingWith("faultline_host_tcp_listen_overflows")) {
      sum += m.sum(name, Map.of());
    }
    return sum;
  }

  private static PrometheusText await(String url, Predicate<PrometheusText> done) throws Exception {
    long deadline = System.nanoTime() + SEEN_WITHIN.toNanos();
    String body = Http.awaitOk(url, SEEN_WITHIN).body();
    PrometheusText last = PrometheusText.parse(body);
    while (!done.test(last) && System.nanoTime() < deadline) {
      Thread.sleep(200);
      body = Http.get(url).body();
      last = PrometheusText.parse(body);
    }
    if (!done.test(last)) {
      // What the assertions that follow will name, with the series beside them.
      System.out.println("BROKER-SIDE storm: not seen within " + SEEN_WITHIN + "; last scrape:");
      body.lines()
          .filter(l -> l.contains("listener_queue") || l.contains("LISTENER_QUEUE_FULL"))
          .filter(l -> !l.startsWith("#"))
          .forEach(System.out::println);
    }
    return last;
  }
}
