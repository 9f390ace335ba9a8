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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The LINE Kafka incident reproduced: a slow path between a producer and one of three brokers. The
 * producer — a plain application in a child JVM with {@code -javaagent:} — sends 128 KB records
 * twice a second to one partition on each broker, with a 16 KB send buffer so no request fits the
 * socket in one write. Traffic into broker 2 crosses a 3 Mbit/s link with 10 ms of delay (netem on
 * the host side of its veth). The broker's own {@code TotalTimeMs} for Produce, read over JMX,
 * stays at a few milliseconds, because its timer starts when it has the whole request; the client's
 * latency to it is hundreds of milliseconds, and Faultline puts that time in the transmit and
 * delivery phases of node 2 and raises {@code KAFKA_TRANSMIT_BOUND} for node 2 only.
 */
@ExtendWith(RealServers.class)
@RequiresDocker("the slow link is a qdisc on one broker container's veth; JMX from the container")
class TransmitGapOnRealBrokersTest {

  private static final String PHASE = "faultline_kafka_request_phase_seconds";
  private static final String GAP = "faultline_kafka_request_gap_seconds";
  private static final List<String> PHASES =
      List.of("queue", "transmit", "delivery", "response", "response_incl_delivery", "receive");
  private static final Pattern BOUND =
      Pattern.compile("\"id\":\"KAFKA_TRANSMIT_BOUND\"[^}]*?\"subject\":\"[^\"]*node (-?\\d+)\"");
  private static final int SLOW_NODE = 2;
  private static final int RECORD_BYTES = 128 * 1024;
  private static final int PER_SECOND = 2;
  private static final int SECONDS = 15;
  private static final long LINK_BITS_PER_SECOND = 3_000_000;

  /** What the link takes to carry one record: the least the slow node's requests can wait. */
  private static final double RECORD_ON_THE_LINK_MS =
      RECORD_BYTES * 8 * 1000.0 / LINK_BITS_PER_SECOND;

  @Test
  void theTimeBeforeTheBrokerHasTheRequestIsTransmitAndDelivery(
      @Brokers(value = 3, dedicated = true) KafkaCluster kafka) throws Exception {
    assumeTrue(TcpInfoReader.create().isSupported(), "TCP_INFO is read only on Linux");
    assumeTrue(SlowLink.available(), "needs root, tc and nsenter to shape a container's link");
    String topic = "gap-" + UUID.randomUUID().toString().substring(0, 8);
    try (Admin admin = Admin.create(kafka.clientProperties(Map.of()))) {
      // One partition on each broker, no replicas: no broker waits for another one.
      admin
          .createTopics(
              List.of(new NewTopic(topic, Map.of(0, List.of(1), 1, List.of(2), 2, List.of(3)))))
          .all()
          .get(60, TimeUnit.SECONDS);
    }
    int port = Http.freePort();
    String base = "http://127.0.0.1:" + port;
    Path ready = Files.createTempFile("paced-producer", ".ready");
    Files.delete(ready);
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs(
                "prometheus.port="
                    + port
                    + ",kafka.tcp.interval=2s,kafka.phases.transmit-bound-threshold=100ms")
            .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
    Set<String> boundNodes = new TreeSet<>();
    String boundFinding = null;
    try (SlowLink link =
            SlowLink.into(kafka.node(SLOW_NODE), LINK_BITS_PER_SECOND / 1_000_000 + "mbit");
        ChildJvm.Running running =
            child.start(
                "io.faultline.it.agent.app.PacedProducerApp",
                kafka.bootstrapServers(),
                topic,
                "3",
                Integer.toString(RECORD_BYTES),
                Integer.toString(PER_SECOND),
                Integer.toString(SECONDS),
                ready.toString())) {
      long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
      while (!Files.exists(ready) && System.nanoTime() < deadline && running.isAlive()) {
        String findings = findings(base + "/faultline/findings");
        Matcher m = BOUND.matcher(findings);
        while (m.find()) {
          boundNodes.add(m.group(1));
          if (m.group(1).equals(Integer.toString(SLOW_NODE)) && boundFinding == null) {
            boundFinding = findings;
          }
        }
        Thread.sleep(500);
      }
      assertThat(ready).as("the producer finished").exists();
      int records = 3 * PER_SECOND * SECONDS;
      assertThat(Files.readString(ready)).isEqualTo("acked=" + records + " failed=0");
      String scrape = Http.awaitOk(base + "/metrics", Duration.ofSeconds(10)).body();
      PrometheusText metrics = PrometheusText.parse(scrape);
      ChildJvm.save("transmit-gap.metrics.txt", scrape);
      if (boundFinding != null) {
        ChildJvm.save("transmit-gap.findings.json", boundFinding);
      }

      Map<Integer, BrokerJmx.RequestTime> broker = new TreeMap<>();
      for (var node : kafka.nodes()) {
        broker.put(node.id(), BrokerJmx.totalTime(node.jmxAddress().orElseThrow(), "Produce"));
      }
      Map<Integer, Map<String, Double>> phases = new TreeMap<>();
      Map<Integer, Double> latency = new TreeMap<>();
      Map<Integer, Double> gap = new TreeMap<>();
      Map<Integer, Double> requests = new TreeMap<>();
      for (var node : kafka.nodes()) {
        Map<String, String> produce =
            labels(
                "api",
                "produce",
                "client_type",
                "producer",
                "node_id",
                Integer.toString(node.id()));
        double n = metrics.sum(PHASE + "_count", with(produce, "phase", "queue"));
        requests.put(node.id(), n);
        latency.put(node.id(), metrics.sum(PHASE + "_sum", produce) / n * 1000);
        gap.put(
            node.id(),
            metrics.sum(GAP + "_sum", produce) / metrics.sum(GAP + "_count", produce) * 1000);
        Map<String, Double> means = new LinkedHashMap<>();
        for (String phase : PHASES) {
          double count = metrics.sum(PHASE + "_count", with(produce, "phase", phase));
          double sum = metrics.sum(PHASE + "_sum", with(produce, "phase", phase));
          means.put(phase, count == 0 ? 0 : sum / count * 1000);
        }
        phases.put(node.id(), means);
      }
      System.out.println(
          table(link.description(), broker, phases, latency, gap, requests, boundNodes));

      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60);
      ChildJvm.save("transmit-gap.stderr.txt", result.stderr());

      Map<String, Double> slow = phases.get(SLOW_NODE);
      double slowPreBroker = slow.get("queue") + slow.get("transmit") + slow.get("delivery");
      assertThat(broker.get(SLOW_NODE).count())
          .as("the slow broker timed the produce requests")
          .isGreaterThanOrEqualTo(PER_SECOND * SECONDS);
      // Bounds from this run's own figures and the link's rate, none from the machine's speed: a
      // loaded machine makes every figure larger, never the link faster.
      assertThat(broker.get(SLOW_NODE).meanMs())
          .as("the slow broker's own Produce TotalTimeMs stays low against the client's latency")
          .isLessThan(latency.get(SLOW_NODE) / 5);
      assertThat(slow.get("transmit") + slow.get("delivery"))
          .as(
              "transmit + delivery carry the latency to the slow node, ms (a record takes %.0f ms"
                  + " on the link)",
              RECORD_ON_THE_LINK_MS)
          .isGreaterThan(RECORD_ON_THE_LINK_MS / 4)
          .isGreaterThan(latency.get(SLOW_NODE) / 2);
      assertThat(gap.get(SLOW_NODE))
          .as("the gap (client latency the broker cannot see) of the slow node, ms")
          .isGreaterThan(latency.get(SLOW_NODE) / 2);
      for (var node : kafka.nodes()) {
        if (node.id() == SLOW_NODE) {
          continue;
        }
        Map<String, Double> healthy = phases.get(node.id());
        assertThat(healthy.get("queue") + healthy.get("transmit") + healthy.get("delivery"))
            .as("pre-broker time of healthy node %d, ms", node.id())
            .isLessThan(slowPreBroker / 5);
      }
      assertThat(boundNodes)
          .as("KAFKA_TRANSMIT_BOUND raised for the slow node only")
          .containsExactly(Integer.toString(SLOW_NODE));
      assertThat(metrics.sum("faultline_agent_errors_total", labels())).isZero();
      result.assertCleanExit();
    }
  }

  private static String findings(String url) throws InterruptedException {
    try {
      var response = Http.get(url);
      return response.statusCode() == 200 ? response.body() : "";
    } catch (IOException e) {
      return ""; // the agent's endpoint is not up yet
    }
  }

  private static String table(
      String link,
      Map<Integer, BrokerJmx.RequestTime> broker,
      Map<Integer, Map<String, Double>> phases,
      Map<Integer, Double> latency,
      Map<Integer, Double> gap,
      Map<Integer, Double> requests,
      Set<String> bound) {
    StringBuilder out = new StringBuilder();
    out.append("produce requests per node (means in ms; slow link: ").append(link).append(")\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%-5s %5s | %8s | %8s %8s | %7s %8s %8s %8s %9s %7s | %8s | %s%n",
            "node",
            "n",
            "client",
            "broker",
            "brk p99",
            "queue",
            "transmit",
            "delivery",
            "response",
            "resp+dlv",
            "receive",
            "gap",
            "KAFKA_TRANSMIT_BOUND"));
    for (var e : phases.entrySet()) {
      int node = e.getKey();
      Map<String, Double> p = e.getValue();
      out.append(
          String.format(
              Locale.ROOT,
              "%-5d %5.0f | %8.1f | %8.1f %8.1f | %7.1f %8.1f %8.1f %8.1f %9.1f %7.1f | %8.1f | %s%n",
              node,
              requests.get(node),
              latency.get(node),
              broker.get(node).meanMs(),
              broker.get(node).p99Ms(),
              p.get("queue"),
              p.get("transmit"),
              p.get("delivery"),
              p.get("response"),
              p.get("response_incl_delivery"),
              p.get("receive"),
              gap.get(node),
              bound.contains(Integer.toString(node)) ? "raised" : "-"));
    }
    return out.toString();
  }

  private static Map<String, String> labels(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static Map<String, String> with(Map<String, String> base, String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(base);
    m.put(key, value);
    return m;
  }
}
