package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The TCP facts of a broker's clients as its operators see them in the agent's metrics, on a real
 * broker with the agent in a network namespace of its own ({@link VethNamespace}) and clients
 * without the agent connecting from the host over the veth pair. A producer writes a backlog; a
 * consumer with a 4 KiB receive buffer and one with the system's buffers read it: the broker's
 * sends to the first wait for its window, so it tops the clients by rwnd-limited time, its window
 * is the listener's smallest, and the listener's rwnd-limited counter grew by at least its time.
 * Then a {@code tbf} qdisc on the namespace's end of the link (4 Mbit/s) slows what the broker
 * sends to the host, an nftables rule on the host's end drops one in fifty of those segments, and
 * another consumer reads the backlog through it: its RTT (the queue's) tops the clients, far above
 * a client connected over the namespace's loopback, and it tops them by retransmits. Needs root,
 * iproute2, tc, nft and python3.
 */
@Timeout(400)
class BrokerSummarisesClientTcpTest {

  private static final int KAFKA_PORT = 9092;
  private static final int AGENT_PORT = 9404;
  private static final int RECORDS = 320;
  private static final int RECORD_BYTES = 100 * 1024;
  private static final Map<String, String> PORT = Map.of("port", Integer.toString(KAFKA_PORT));
  private static final String RWND_LIMITED_TOTAL =
      "faultline_host_tcp_accepted_rwnd_limited_seconds_total";

  @Test
  void theBrokerNamesTheClientsItsSendsWaitForAndTheFarOnes() throws Exception {
    assumeTrue(VethNamespace.available(), "needs root and iproute2 (ip netns)");
    assumeTrue(
        works("tc", "-V") && works("nft", "--version") && works("python3", "--version"),
        "needs tc, nft and python3");
    try (VethNamespace ns = VethNamespace.create("flsumm")) {
      KafkaBrokerChild.Node node =
          new KafkaBrokerChild.Node(
              1, Uuid.randomUuid().toString(), "1@127.0.0.1:9093", ns.inside(), KAFKA_PORT, 9093);
      String agentArgs =
          "prometheus.host=0.0.0.0,prometheus.port=" + AGENT_PORT + ",doctor.clients-interval=1s";
      try (KafkaBrokerChild broker =
          KafkaBrokerChild.start("tcp-summary", agentArgs, node, ns.prefix())) {
        broker.awaitStarted(Duration.ofSeconds(120));
        String base = "http://" + ns.inside() + ":" + AGENT_PORT;
        // The agent's endpoint opens once the broker's start has settled, and its first sweep of
        // the accepted connections (the counters' baseline) runs a sweep interval later: a
        // connection already open then counts only what it adds afterwards.
        PrometheusText swept =
            PrometheusText.parse(
                Http.awaitMetrics(
                    base + "/metrics",
                    Duration.ofSeconds(60),
                    m -> !m.find(RWND_LIMITED_TOTAL, PORT).isEmpty()));
        assertThat(swept.find(RWND_LIMITED_TOTAL, PORT))
            .as("the agent swept the broker's accepted connections")
            .isNotEmpty();
        String topic = "tcp-summary-" + Uuid.randomUuid().toString().substring(0, 8);
        broker.createTopic(topic, (short) 1);
        PrometheusText before = scrape(base);
        double rwndBefore = before.sum(RWND_LIMITED_TOTAL, PORT);

        try (KafkaProducer<byte[], byte[]> producer = producer(broker)) {
          byte[] value = new byte[RECORD_BYTES];
          for (int i = 0; i < RECORDS; i++) {
            producer.send(new ProducerRecord<>(topic, value));
          }
          producer.flush();
        }

        // Phase 1: a consumer with a 4 KiB receive buffer and one with the system's.
        try (KafkaConsumer<byte[], byte[]> tiny = consumer(broker, topic, "lab-tiny", 4096);
            KafkaConsumer<byte[], byte[]> normal = consumer(broker, topic, "lab-normal", -1)) {
          long tinyNanos = readAll(tiny);
          long normalNanos = readAll(normal);
          PrometheusText seen =
              await(
                  base, m -> clients(m, "rwnd_limited_seconds").getOrDefault("lab-tiny", 0.0) > 0);
          Map<String, Double> rwnd = clients(seen, "rwnd_limited_seconds");
          double tinyRwnd = rwnd.getOrDefault("lab-tiny", 0.0);
          // A client not among the top five is at most "other", the rest summed.
          double normalRwnd = rwnd.getOrDefault("lab-normal", rwnd.getOrDefault("other", 0.0));
          double counted = seen.sum(RWND_LIMITED_TOTAL, PORT) - rwndBefore;
          double windowMin = seen.sum("faultline_host_tcp_accepted_client_window_min_bytes", PORT);
          System.out.printf(
              Locale.ROOT,
              "BROKER-SIDE summary: %d MB read by lab-tiny (receive.buffer.bytes=4096) in %.1f s,"
                  + " by lab-normal in %.1f s; rwnd-limited: lab-tiny %.3f s, lab-normal %.3f s,"
                  + " listener counter +%.3f s; smallest client window %.0f bytes, median %.0f;"
                  + " per-client rwnd-limited %s%n",
              (long) RECORDS * RECORD_BYTES / 1_000_000,
              tinyNanos / 1e9,
              normalNanos / 1e9,
              tinyRwnd,
              normalRwnd,
              counted,
              windowMin,
              seen.sum("faultline_host_tcp_accepted_client_window_median_bytes", PORT),
              rwnd);
          assertThat(top(rwnd))
              .as("the client the broker's sends waited for most")
              .isEqualTo("lab-tiny");
          assertThat(tinyRwnd)
              .as("lab-tiny's rwnd-limited time vs lab-normal's")
              .isGreaterThan(4 * normalRwnd);
          assertThat(counted)
              .as("the listener's rwnd-limited counter grew by at least lab-tiny's time")
              .isGreaterThanOrEqualTo(tinyRwnd);
          assertThat(windowMin)
              .as("the smallest client window: lab-tiny's")
              .isLessThanOrEqualTo(16_384);
          assertThat(rwnd)
              .as("per-client rows: the top five and other")
              .hasSizeLessThanOrEqualTo(6);
        }

        // Phase 2: the broker's sends to the host queue in a tbf; a client on loopback does not.
        Process near =
            new ProcessBuilder(command(ns, "python3", "-c", NEAR_CLIENT, ns.inside()))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try {
          BufferedReader out =
              new BufferedReader(
                  new InputStreamReader(near.getInputStream(), StandardCharsets.UTF_8));
          assertThat(out.readLine()).isEqualTo("connected");
          ns.exec(
              "tc",
              "qdisc",
              "add",
              "dev",
              ns.insideDevice(),
              "root",
              "tbf",
              "rate",
              "4mbit",
              "burst",
              "32kbit",
              "latency",
              "400ms");
          double retransBefore =
              scrape(base).sum("faultline_host_tcp_accepted_retransmits_segments_total", PORT);
          String nearClient = ns.inside();
          try (HostLoss loss = HostLoss.on(ns);
              KafkaConsumer<byte[], byte[]> far = consumer(broker, topic, "lab-far", -1)) {
            PrometheusText m = scrape(base);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            long scraped = System.nanoTime();
            while (System.nanoTime() < deadline && !farSeen(m, nearClient)) {
              far.poll(Duration.ofMillis(200));
              if (System.nanoTime() - scraped > TimeUnit.MILLISECONDS.toNanos(500)) {
                m = scrape(base);
                scraped = System.nanoTime();
              }
            }
            Map<String, Double> rtt = clients(m, "rtt_seconds");
            Map<String, Double> retrans = clients(m, "retransmits_segments");
            double counted =
                m.sum("faultline_host_tcp_accepted_retransmits_segments_total", PORT)
                    - retransBefore;
            System.out.printf(
                Locale.ROOT,
                "BROKER-SIDE summary: behind a 4 Mbit/s tbf lab-far's RTT %.1f ms, the loopback"
                    + " client's (%s) %.3f ms; listener RTT median %.3f ms, max %.1f ms;"
                    + " retransmits: lab-far %.0f, listener counter +%.0f; per-client RTT %s,"
                    + " retransmits %s%n",
                rtt.getOrDefault("lab-far", Double.NaN) * 1e3,
                nearClient,
                rtt.getOrDefault(nearClient, Double.NaN) * 1e3,
                m.sum("faultline_host_tcp_accepted_rtt_median_seconds", PORT) * 1e3,
                m.sum("faultline_host_tcp_accepted_rtt_max_seconds", PORT) * 1e3,
                retrans.getOrDefault("lab-far", 0.0),
                counted,
                rtt,
                retrans);
            assertThat(top(rtt)).as("the client with the longest RTT").isEqualTo("lab-far");
            assertThat(rtt).containsKey(nearClient);
            assertThat(rtt.get("lab-far"))
                .as("lab-far's RTT vs the loopback client's")
                .isGreaterThan(10 * rtt.get(nearClient));
            assertThat(m.sum("faultline_host_tcp_accepted_rtt_max_seconds", PORT))
                .as("the listener's longest RTT")
                .isGreaterThan(10 * rtt.get(nearClient));
            assertThat(top(retrans))
                .as("the client with the most retransmits")
                .isEqualTo("lab-far");
            assertThat(counted).as("the listener's retransmits counter grew").isPositive();
          }
        } finally {
          near.getOutputStream().close();
          near.destroy();
          near.waitFor(10, TimeUnit.SECONDS);
        }
        PrometheusText last = scrape(base);
        assertThat(last.sum("faultline_agent_errors_total", Map.of()))
            .as("suppressed agent errors")
            .isZero();
      }
    }
  }

  /**
   * Drops one in fifty of the broker's segments as they reach the host, after they left the
   * broker's stack: a loss its TCP must retransmit. The namespace's own qdisc backs the sender off
   * (TCP small queues) rather than losing segments in flight: the tbf alone gave 0 to 3. The table,
   * in the host's namespace, hooks only the pair's host end and is deleted on close.
   */
  private record HostLoss(String table) implements AutoCloseable {
    static HostLoss on(VethNamespace ns) throws Exception {
      String table = "fl_" + ns.outsideDevice();
      String rules =
          "table netdev "
              + table
              + " {\n chain lossy {\n  type filter hook ingress device \""
              + ns.outsideDevice()
              + "\" priority 0; policy accept;\n  ip saddr "
              + ns.inside()
              + " tcp sport "
              + KAFKA_PORT
              + " numgen random mod 50 == 0 drop\n }\n}\n";
      Process p = new ProcessBuilder("nft", "-f", "-").redirectErrorStream(true).start();
      p.getOutputStream().write(rules.getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0).as("nft: %s", out).isTrue();
      return new HostLoss(table);
    }

    @Override
    public void close() throws Exception {
      new ProcessBuilder("nft", "delete", "table", "netdev", table)
          .redirectErrorStream(true)
          .start()
          .waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Connects to the broker's port on the given address and holds the connection. */
  private static final String NEAR_CLIENT =
      "import socket,sys\n"
          + "s=socket.create_connection((sys.argv[1],"
          + KAFKA_PORT
          + "))\n"
          + "print('connected',flush=True)\n"
          + "sys.stdin.read()\n";

  private static boolean farSeen(PrometheusText m, String nearClient) {
    Map<String, Double> rtt = clients(m, "rtt_seconds");
    Map<String, Double> retrans = clients(m, "retransmits_segments");
    return "lab-far".equals(top(rtt))
        && rtt.containsKey(nearClient)
        && rtt.get("lab-far") > 10 * rtt.get(nearClient)
        && "lab-far".equals(top(retrans));
  }

  /** Reads the whole backlog; how long it took. */
  private static long readAll(KafkaConsumer<byte[], byte[]> consumer) {
    long started = System.nanoTime();
    long deadline = started + TimeUnit.SECONDS.toNanos(120);
    int read = 0;
    while (read < RECORDS && System.nanoTime() < deadline) {
      read += consumer.poll(Duration.ofMillis(200)).count();
    }
    assertThat(read).as("records read").isEqualTo(RECORDS);
    return System.nanoTime() - started;
  }

  /** Client to value of {@code faultline_host_tcp_accepted_client_<suffix>} on the port. */
  private static Map<String, Double> clients(PrometheusText m, String suffix) {
    Map<String, Double> out = new TreeMap<>();
    for (PrometheusText.Sample s : m.find("faultline_host_tcp_accepted_client_" + suffix, PORT)) {
      out.put(s.labels().get("client"), s.value());
    }
    return out;
  }

  /** The named client with the highest value (not "other"), or null. */
  private static String top(Map<String, Double> byClient) {
    String best = null;
    for (Map.Entry<String, Double> e : byClient.entrySet()) {
      if (!e.getKey().equals("other")
          && e.getValue() > 0
          && (best == null || e.getValue() > byClient.get(best))) {
        best = e.getKey();
      }
    }
    return best;
  }

  private static PrometheusText scrape(String base) throws Exception {
    return PrometheusText.parse(Http.get(base + "/metrics").body());
  }

  private static PrometheusText await(
      String base, java.util.function.Predicate<PrometheusText> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    // Two sweeps after the reads, so that one saw their connections as they ended.
    Thread.sleep(2_500);
    PrometheusText last = scrape(base);
    while (!done.test(last) && System.nanoTime() < deadline) {
      Thread.sleep(250);
      last = scrape(base);
    }
    return last;
  }

  private static KafkaProducer<byte[], byte[]> producer(KafkaBrokerChild broker) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "lab-producer");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static KafkaConsumer<byte[], byte[]> consumer(
      KafkaBrokerChild broker, String topic, String id, int receiveBuffer) {
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap);
    c.put(ConsumerConfig.CLIENT_ID_CONFIG, id);
    c.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-" + id);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, Integer.toString(receiveBuffer));
    KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    consumer.subscribe(List.of(topic));
    return consumer;
  }

  private static String[] command(VethNamespace ns, String... command) {
    List<String> full = new ArrayList<>(List.of(ns.prefix()));
    full.addAll(List.of(command));
    return full.toArray(String[]::new);
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
