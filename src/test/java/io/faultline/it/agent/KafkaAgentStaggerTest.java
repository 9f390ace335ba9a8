package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.net.ProcNetTcp;
import io.faultline.core.net.TcpState;
import io.faultline.it.servers.Brokers;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.RealServers;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.ElectionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The reconnect gate in a real child JVM: {@value #PRODUCERS} idempotent producers (no Faultline
 * code) against a 3-broker cluster; one broker restarts and a preferred leader election hands its
 * partitions back, which makes every producer want that broker at the same moment (the LINE Kafka
 * incident's burst). The connections to that broker are watched from {@code /proc/<child>/net/tcp}
 * every 5 ms; with {@code kafka.stagger=false} they come in a bunch, with the gate they spread over
 * the window.
 */
@ExtendWith(RealServers.class)
class KafkaAgentStaggerTest {

  private static final int PRODUCERS = 20;
  private static final int PARTITIONS = 6;
  private static final long WINDOW_MS = 3000;

  @Test
  void reconnectsAfterALeaderElectionAreSpreadByTheGate(
      @Brokers(value = 3, dedicated = true) KafkaCluster kafka) throws Exception {
    kafka.createTopic("storm", PARTITIONS);
    Spread off = run(kafka, false);
    Spread on = run(kafka, true);
    System.out.println(
        "connections to the restarted broker after the preferred leader election ("
            + PRODUCERS
            + " producers, kafka.stagger.window="
            + WINDOW_MS
            + "ms)");
    System.out.println("  gate off: " + off);
    System.out.println("  gate on:  " + on);
    assertThat(off.offsetsMs())
        .as("gate off: producers reconnected")
        .hasSizeGreaterThanOrEqualTo(PRODUCERS / 2);
    assertThat(on.offsetsMs())
        .as("gate on: producers reconnected")
        .hasSizeGreaterThanOrEqualTo(PRODUCERS / 2);
    // What the gates decided (their own counters in each child's /metrics): without the gate
    // nothing is held back; with it every producer that wanted node 2 again was told to wait, then
    // let through after a delay drawn from the window (uniform: a mean of about half of it).
    assertThat(off.gate().outcomes().getOrDefault("deferred", 0L))
        .as("gate off: reconnects deferred")
        .isZero();
    assertThat(on.gate().outcomes().getOrDefault("deferred", 0L))
        .as("gate on: reconnects deferred (%s)", on.gate().describe())
        .isGreaterThanOrEqualTo(PRODUCERS / 2);
    assertThat(on.gate().outcomes().getOrDefault("after_delay", 0L))
        .as("gate on: reconnects let through after their delay (%s)", on.gate().describe())
        .isGreaterThanOrEqualTo(PRODUCERS / 2);
    assertThat(on.gate().delaySumSeconds() / on.gate().delays())
        .as("gate on: mean delay from want to connect, s (window %d ms)", WINDOW_MS)
        .isLessThan(WINDOW_MS / 1000.0);
    // The effect, against this run's own baseline: the same producers without the gate.
    assertThat(on.middleSpreadMs())
        .as("middle 80%%, on vs off")
        .isGreaterThan(off.middleSpreadMs());
  }

  record Spread(List<Long> offsetsMs, long acked, long failed, GateTally gate) {
    long spreadMs() {
      return offsetsMs.isEmpty() ? 0 : offsetsMs.get(offsetsMs.size() - 1) - offsetsMs.get(0);
    }

    long middleSpreadMs() {
      if (offsetsMs.size() < 5) {
        return spreadMs();
      }
      int lo = offsetsMs.size() / 10;
      int hi = offsetsMs.size() - 1 - offsetsMs.size() / 10;
      return offsetsMs.get(hi) - offsetsMs.get(lo);
    }

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%d connections, spread %.2f s (middle 80%%: %.2f s), offsets after the election ms %s;"
              + " acked=%d failed=%d; gate: %s",
          offsetsMs.size(),
          spreadMs() / 1000.0,
          middleSpreadMs() / 1000.0,
          offsetsMs,
          acked,
          failed,
          gate.describe());
    }
  }

  private Spread run(KafkaCluster kafka, boolean gate) throws Exception {
    KafkaNode restarted = kafka.node(2);
    InetSocketAddress broker = restarted.address();
    int port = Http.freePort();
    Path ready = Files.createTempFile("producers", ".ready");
    Files.delete(ready);
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs(
                "prometheus.port="
                    + port
                    + ",kafka.stagger="
                    + gate
                    + ",kafka.stagger.window="
                    + WINDOW_MS
                    + "ms")
            .classPath(ChildJvm.jarOf(org.apache.kafka.clients.producer.KafkaProducer.class))
            .classPath(ChildJvm.jarOf(org.slf4j.Logger.class));
    try (ChildJvm.Running running =
        child.start(
            "io.faultline.it.agent.app.KafkaProducersApp",
            kafka.bootstrapServers(),
            "storm",
            String.valueOf(PARTITIONS),
            String.valueOf(PRODUCERS),
            ready.toString())) {
      long t0 = System.nanoTime();
      long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (!Files.exists(ready) && running.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(ready).as("all producers had records acknowledged").exists();
      long tReady = System.nanoTime();
      restarted.restart();
      long tRestarted = System.nanoTime();
      awaitInSync(kafka, 2);
      long tInSync = System.nanoTime();
      Thread.sleep(3000); // producers settle on the new leaders; node 2 is wanted by none
      ConnectionWatcher watcher = new ConnectionWatcher(running.pid(), broker);
      watcher.start();
      Thread.sleep(300);
      GateTally before = GateTally.scrape(List.of(port), 2);
      long electedAt = System.nanoTime();
      try (Admin admin = Admin.create(adminProps(kafka))) {
        admin.electLeaders(ElectionType.PREFERRED, null).all().get(30, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        // ElectionNotNeeded for partitions already led by their preferred leader is fine
      }
      Thread.sleep(WINDOW_MS + 4000);
      watcher.stop();
      GateTally decisions = GateTally.scrape(List.of(port), 2).since(before);
      running.send("stop");
      long tStop = System.nanoTime();
      ChildJvm.Result result = running.awaitExit(120);
      // Where the run's time went, to compare a slow run (or the embedded mode) with others.
      System.out.printf(
          "  [gate %s] s: producers ready %.1f, restart %.1f, in sync %.1f, watched %.1f,"
              + " exit %.1f%n",
          gate ? "on" : "off",
          (tReady - t0) / 1e9,
          (tRestarted - tReady) / 1e9,
          (tInSync - tRestarted) / 1e9,
          (tStop - tInSync) / 1e9,
          (System.nanoTime() - tStop) / 1e9);
      ChildJvm.save("kafka-stagger-" + (gate ? "on" : "off") + ".stderr.txt", result.stderr());
      result.assertCleanExit();
      List<Long> offsets = new ArrayList<>();
      for (long firstSeen : watcher.firstSeen().values()) {
        if (firstSeen >= electedAt - 200_000_000L) {
          offsets.add((firstSeen - electedAt) / 1_000_000);
        }
      }
      Collections.sort(offsets);
      long acked = parse(result.stdout(), "acked=");
      long failed = parse(result.stdout(), "failed=");
      return new Spread(offsets, acked, failed, decisions);
    }
  }

  private static long parse(String out, String key) {
    int i = out.indexOf(key);
    if (i < 0) {
      return -1;
    }
    int j = i + key.length();
    int k = j;
    while (k < out.length() && Character.isDigit(out.charAt(k))) {
      k++;
    }
    return Long.parseLong(out.substring(j, k));
  }

  private static Properties adminProps(KafkaCluster kafka) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    return p;
  }

  private static void awaitInSync(KafkaCluster kafka, int node) throws Exception {
    try (Admin admin = Admin.create(adminProps(kafka))) {
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (System.nanoTime() < deadline) {
        var topic =
            admin
                .describeTopics(List.of("storm"))
                .allTopicNames()
                .get(10, TimeUnit.SECONDS)
                .get("storm");
        boolean all =
            topic.partitions().stream()
                .allMatch(p -> p.isr().stream().anyMatch(n -> n.id() == node));
        if (all) {
          return;
        }
        Thread.sleep(500);
      }
    }
    throw new AssertionError("node " + node + " did not rejoin the ISR");
  }

  /** Polls the child's TCP table and keeps when each connection to the broker first appeared. */
  static final class ConnectionWatcher {
    private final Path table;
    private final Path table6;
    private final InetSocketAddress broker;
    private final Map<Integer, Long> firstSeen = Collections.synchronizedMap(new HashMap<>());
    private final ProcNetTcp parser = ProcNetTcp.nativeOrder();
    private volatile boolean running = true;
    private Thread thread;
    private Set<Integer> before;

    ConnectionWatcher(long pid, InetSocketAddress broker) {
      this.table = Path.of("/proc/" + pid + "/net/tcp");
      this.table6 = Path.of("/proc/" + pid + "/net/tcp6");
      this.broker = broker;
    }

    void start() throws Exception {
      before = Set.copyOf(localPorts());
      thread =
          new Thread(
              () -> {
                while (running) {
                  try {
                    long now = System.nanoTime();
                    for (int p : localPorts()) {
                      if (!before.contains(p)) {
                        firstSeen.putIfAbsent(p, now);
                      }
                    }
                    Thread.sleep(5);
                  } catch (Exception e) {
                    return;
                  }
                }
              });
      thread.start();
    }

    void stop() throws InterruptedException {
      running = false;
      thread.join();
    }

    Map<Integer, Long> firstSeen() {
      return Map.copyOf(firstSeen);
    }

    private List<Integer> localPorts() throws Exception {
      List<Integer> ports = new ArrayList<>();
      for (Path t : List.of(table, table6)) {
        if (!Files.exists(t)) {
          continue;
        }
        for (var e : parser.parse(Files.readAllLines(t))) {
          if (e.state() == TcpState.ESTABLISHED
              && e.remote().getPort() == broker.getPort()
              && e.remote()
                  .getAddress()
                  .getHostAddress()
                  .replace("::ffff:", "")
                  .equals(broker.getAddress().getHostAddress())) {
            ports.add(e.local().getPort());
          }
        }
      }
      return ports;
    }
  }
}
