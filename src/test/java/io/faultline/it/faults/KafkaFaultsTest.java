package io.faultline.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.finding.Finding;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.it.servers.LocalImages;
import io.faultline.it.servers.RequiresDocker;
import io.faultline.it.servers.SmallBacklogKafka;
import io.faultline.kafka.connection.ConnectionReport;
import io.faultline.testcontainers.BrokerRestart;
import io.faultline.testcontainers.KafkaFaults;
import io.faultline.testcontainers.ListenQueue;
import io.faultline.testcontainers.NetworkFault;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * {@link KafkaFaults} on a real broker container (the suite's locally built Kafka image, run as a
 * {@code GenericContainer}): each fault is what the kernel and the broker show, the missing
 * capability is named with its fix, and closing a fault restores the namespace.
 */
@RequiresDocker("the faults change a broker container's network namespace")
class KafkaFaultsTest {

  private static final int PORT = 9092;

  /** One KRaft broker from the suite's image; clients reach it at its container address. */
  private static GenericContainer<?> broker() {
    return new GenericContainer<>(LocalImages.kafka())
        .withEnv("KAFKA_HEAP_OPTS", "-Xms128m -Xmx384m")
        .waitingFor(Wait.forLogMessage(".*Kafka Server started.*", 1))
        .withStartupTimeout(Duration.ofMinutes(2));
  }

  private static InetSocketAddress address(GenericContainer<?> c) {
    String ip =
        c.getCurrentContainerInfo().getNetworkSettings().getNetworks().values().stream()
            .map(n -> n.getIpAddress())
            .filter(a -> a != null && !a.isBlank())
            .findFirst()
            .orElseThrow();
    return new InetSocketAddress(ip, PORT);
  }

  private static String bootstrap(GenericContainer<?> c) {
    InetSocketAddress a = address(c);
    return a.getHostString() + ":" + a.getPort();
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap, String id) {
    return new KafkaProducer<>(
        Map.of("bootstrap.servers", bootstrap, "client.id", "faults-" + id, "acks", "all"),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  private static void send(KafkaProducer<byte[], byte[]> p, String topic, int bytes)
      throws Exception {
    p.send(new ProducerRecord<>(topic, new byte[bytes])).get(60, TimeUnit.SECONDS);
  }

  private static String exec(GenericContainer<?> c, String... command) throws Exception {
    return c.execInContainer(command).getStdout();
  }

  /** Local ports of this process's established connections to {@code broker}. */
  private static Set<Integer> localPorts(InetSocketAddress broker) {
    return ConnectionReport.of(List.of(broker)).entries().stream()
        .map(e -> e.local().getPort())
        .collect(Collectors.toSet());
  }

  private static boolean hostCanEnter() {
    try {
      Process p =
          new ProcessBuilder("sh", "-c", "[ $(id -u) = 0 ] && command -v nsenter nft")
              .redirectErrorStream(true)
              .start();
      return p.waitFor() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  @Test
  void connectionsMadeWhileOnHaveNoWindowScalingAndLaterOnesHaveItAgain() throws Exception {
    assumeTrue(TcpInfoReader.create().isSupported(), "TCP_INFO is read only on Linux");
    // The suite's image has tc but no nft: the rule goes in from the host.
    assumeTrue(hostCanEnter(), "needs root, nsenter and nft on the Docker host");
    try (GenericContainer<?> c = KafkaFaults.prepare(broker())) {
      c.start();
      assertThat(exec(c, "cat", "/proc/sys/net/ipv4/tcp_syncookies").trim())
          .as("prepare forces SYN cookies")
          .isEqualTo("2");
      InetSocketAddress broker = address(c);
      String topic = "wscale-" + UUID.randomUUID();
      KafkaFaults faults = KafkaFaults.on(c);
      try (KafkaProducer<byte[], byte[]> before = producer(bootstrap(c), "before")) {
        send(before, topic, 10);
        Set<Integer> beforePorts = localPorts(broker);
        Set<Integer> duringPorts;
        NetworkFault fault = faults.loseWindowScaling();
        System.out.println("[faultline-it] " + fault.description());
        assertThat(fault.description()).contains("HOST");
        try (KafkaProducer<byte[], byte[]> during = producer(bootstrap(c), "during")) {
          send(during, topic, 10);
          ConnectionReport report = ConnectionReport.of(List.of(broker));
          System.out.print(report.render());
          duringPorts = localPorts(broker);
          duringPorts.removeAll(beforePorts);
          assertThat(duringPorts).isNotEmpty();
          for (ConnectionReport.Entry e : report.entries()) {
            List<String> ids = e.findings().stream().map(Finding::id).toList();
            if (beforePorts.contains(e.local().getPort())) {
              // Forced cookies alone keep window scaling: the timestamps carry it.
              assertThat(ids).as("made before, through a cookie with timestamps").isEmpty();
            } else {
              assertThat(ids).as("made while on").containsExactly("KAFKA_WINDOW_SCALING_OFF");
            }
          }
        }
        fault.close();
        assertThat(fault.isOn()).isFalse();
        assertThat(faults.listenQueue().syncookiesSent()).isPositive();
        try (KafkaProducer<byte[], byte[]> after = producer(bootstrap(c), "after")) {
          send(after, topic, 10);
          for (ConnectionReport.Entry e : ConnectionReport.of(List.of(broker)).entries()) {
            assertThat(e.findings()).as("made after the fault was closed, %s", e.local()).isEmpty();
          }
        }
      }
    }
  }

  @Test
  void fromTheHostItSetsSynCookiesItselfAndRestoresThem() throws Exception {
    assumeTrue(hostCanEnter(), "needs root, nsenter and nft on the Docker host");
    try (GenericContainer<?> c = broker()) {
      c.start();
      assertThat(exec(c, "cat", "/proc/sys/net/ipv4/tcp_syncookies").trim()).isEqualTo("1");
      try (KafkaFaults faults = KafkaFaults.on(c)) {
        faults.loseWindowScaling();
        assertThat(exec(c, "cat", "/proc/sys/net/ipv4/tcp_syncookies").trim()).isEqualTo("2");
      }
      assertThat(exec(c, "cat", "/proc/sys/net/ipv4/tcp_syncookies").trim()).isEqualTo("1");
    }
  }

  @Test
  void aSlowLinkQueuesWhatTheBrokerSendsUntilClosed() throws Exception {
    try (GenericContainer<?> c = KafkaFaults.prepare(broker())) {
      c.start();
      String topic = "slow-" + UUID.randomUUID();
      // In the container: the suite's image has tc, and prepare granted NET_ADMIN.
      KafkaFaults faults = KafkaFaults.on(c).insideContainerOnly();
      try (KafkaProducer<byte[], byte[]> p = producer(bootstrap(c), "slow")) {
        for (int i = 0; i < 4; i++) {
          send(p, topic, 256 * 1024);
        }
      }
      NetworkFault fault = faults.slowLink("4mbit");
      assertThat(fault.description()).contains("tbf on eth0", "CONTAINER");
      assertThat(faults.linkStatistics()).contains("tbf", "rate 4Mbit");

      // A megabyte fetched from the broker crosses the slow link: the bucket holds packets back.
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(
              Map.of(
                  "bootstrap.servers",
                  bootstrap(c),
                  "group.id",
                  "slow-" + UUID.randomUUID(),
                  "auto.offset.reset",
                  "earliest"),
              new ByteArrayDeserializer(),
              new ByteArrayDeserializer())) {
        consumer.subscribe(List.of(topic));
        int records = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (records < 4 && System.nanoTime() < deadline) {
          ConsumerRecords<byte[], byte[]> batch = consumer.poll(Duration.ofMillis(500));
          records += batch.count();
        }
        assertThat(records).isEqualTo(4);
      }
      String stats = faults.linkStatistics();
      System.out.print(stats);
      assertThat(overlimits(stats)).as("packets the bucket held back").isPositive();

      fault.close();
      assertThat(faults.linkStatistics()).doesNotContain("tbf");
    }
  }

  private static long overlimits(String tcStats) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("qdisc tbf[\\s\\S]*?overlimits (\\d+)").matcher(tcStats);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  @Test
  void withoutNetAdminTheErrorNamesTheCapabilityAndTheFix() throws Exception {
    try (GenericContainer<?> c = broker()) {
      c.start();
      KafkaFaults faults = KafkaFaults.on(c).insideContainerOnly();
      assertThatThrownBy(() -> faults.slowLink("1mbit"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("slowLink cannot change container")
          .hasMessageContaining("lacks the NET_ADMIN capability")
          .hasMessageContaining("KafkaFaults.prepare(container)");
      assertThatThrownBy(faults::loseWindowScaling)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("lacks the NET_ADMIN capability")
          .hasMessageContaining("its image has no nft");
      // Nothing was changed on the way to the error.
      assertThat(exec(c, "tc", "qdisc", "show", "dev", "eth0")).doesNotContain("tbf");
    }
  }

  @Test
  void aSmallListenBacklogOverflowsWhenTheBrokerDoesNotAccept() throws Exception {
    try (GenericContainer<?> c = KafkaFaults.smallListenBacklog(broker(), 8)) {
      c.start();
      String listeners = exec(c, "ss", "-ltnH", "sport", "= :" + PORT);
      System.out.print(listeners);
      // For a listening socket ss shows the backlog as Send-Q: the kernel capped Kafka's 50.
      assertThat(listeners.trim().split("\\s+")[2]).isEqualTo("8");

      KafkaFaults faults = KafkaFaults.on(c);
      ListenQueue before = faults.listenQueue();
      InetSocketAddress broker = address(c);
      List<SocketChannel> burst = new ArrayList<>();
      // A paused broker accepts nothing: the kernel's accept queue fills, then turns SYNs away.
      c.getDockerClient().pauseContainerCmd(c.getContainerId()).exec();
      try {
        for (int i = 0; i < 40; i++) {
          SocketChannel ch = SocketChannel.open();
          ch.configureBlocking(false);
          ch.connect(broker);
          burst.add(ch);
        }
        Thread.sleep(1_000);
      } finally {
        c.getDockerClient().unpauseContainerCmd(c.getContainerId()).exec();
        for (SocketChannel ch : burst) {
          ch.close();
        }
      }
      ListenQueue burstCounts = faults.listenQueue().since(before);
      System.out.println("[faultline-it] 40 connects into a backlog of 8: " + burstCounts);
      assertThat(burstCounts.overflows()).isPositive();
    }
  }

  @Test
  void aRestartedBrokerLeadsItsPreferredPartitionsAgainAfterTheElection() throws Exception {
    try (SmallBacklogKafka cluster = new SmallBacklogKafka(3, 128);
        Admin admin =
            Admin.create(
                Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    cluster.bootstrap(1) + "," + cluster.bootstrap(2) + "," + cluster.bootstrap(3),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                    "30000"))) {
      String topic = "restart-" + UUID.randomUUID();
      admin
          .createTopics(List.of(new NewTopic(topic, 6, (short) 3)))
          .all()
          .get(60, TimeUnit.SECONDS);
      awaitPreferredLeaders(admin, topic);
      int restarted = preferredLeader(describe(admin, topic).partitions().get(0));

      BrokerRestart restart =
          KafkaFaults.on(cluster.container(restarted)).restartWithPreferredLeaderElection(admin);
      System.out.println("[faultline-it] restart of broker " + restarted + ": " + restart);

      TopicDescription after = describe(admin, topic);
      Set<TopicPartition> preferredByIt =
          after.partitions().stream()
              .filter(p -> preferredLeader(p) == restarted)
              .map(p -> new TopicPartition(topic, p.partition()))
              .collect(Collectors.toSet());
      assertThat(preferredByIt).isNotEmpty();
      // Its controlled shutdown moved them away; the election moved them back.
      assertThat(restart.elected()).containsAll(preferredByIt);
      for (TopicPartitionInfo p : after.partitions()) {
        assertThat(p.leader().id()).as("leader of %s", p.partition()).isEqualTo(preferredLeader(p));
      }
    }
  }

  private static int preferredLeader(TopicPartitionInfo p) {
    return p.replicas().get(0).id();
  }

  private static TopicDescription describe(Admin admin, String topic) throws Exception {
    return admin
        .describeTopics(List.of(topic))
        .allTopicNames()
        .get(30, TimeUnit.SECONDS)
        .get(topic);
  }

  private static void awaitPreferredLeaders(Admin admin, String topic) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if (describe(admin, topic).partitions().stream()
            .allMatch(p -> p.leader() != null && p.leader().id() == preferredLeader(p))) {
          return;
        }
      } catch (java.util.concurrent.ExecutionException e) {
        // A new topic's metadata reaches every broker a moment later.
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the new topic's leaders never settled on their preferred replicas");
  }
}
