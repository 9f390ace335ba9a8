package io.faultline.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.finding.Finding;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.it.servers.Brokers;
import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.KafkaNode;
import io.faultline.it.servers.RealServers;
import io.faultline.it.servers.RequiresDocker;
import io.faultline.kafka.connection.ConnectionReport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Tencent CKafka incident against a real broker: in the broker container's network namespace
 * SYN cookies are forced ({@code tcp_syncookies=2}) and an nftables rule strips the timestamp
 * option from incoming SYNs to the Kafka port, as the NAT gateway did. A producer connected before
 * keeps window scaling; one connected after has none, and {@link ConnectionReport} — no agent —
 * says so with {@code KAFKA_WINDOW_SCALING_OFF} for its connections only. Needs root, {@code
 * nsenter} and {@code nft}.
 */
@ExtendWith(RealServers.class)
@RequiresDocker("the SYN-cookie rule goes into the broker container's own network namespace")
class WindowScalingLostOnRealBrokerTest {

  @Test
  void connectionsMadeThroughCookiesWithoutTimestampsAreFlagged(
      @Brokers(value = 1, dedicated = true) KafkaCluster kafka) throws Exception {
    assumeTrue(TcpInfoReader.create().isSupported(), "TCP_INFO is read only on Linux");
    assumeTrue(isRoot(), "needs root to enter the broker's network namespace");
    assumeTrue(works("nsenter", "--version") && works("nft", "--version"), "nsenter/nft missing");
    KafkaNode node = kafka.node(1);
    String pid = containerPid(node.address());
    String topic = "wscale-" + UUID.randomUUID();
    kafka.createTopic(topic, 1);

    try (KafkaProducer<String, String> before = producer(kafka, "before")) {
      before.send(new ProducerRecord<>(topic, "x")).get(60, TimeUnit.SECONDS);
      Set<Integer> beforePorts = localPorts(node.address());

      inBrokerNs(pid, "sh", "-c", "echo 2 > /proc/sys/net/ipv4/tcp_syncookies");
      inBrokerNs(pid, "nft", "add", "table", "inet", "faultline");
      inBrokerNs(
          pid,
          "nft",
          "add",
          "chain",
          "inet",
          "faultline",
          "pre",
          "{ type filter hook prerouting priority -300; }");
      inBrokerNs(
          pid,
          "nft",
          "add",
          "rule",
          "inet",
          "faultline",
          "pre",
          "tcp dport " + node.address().getPort() + " tcp flags syn reset tcp option timestamp");
      try (KafkaProducer<String, String> after = producer(kafka, "after")) {
        after.send(new ProducerRecord<>(topic, "y")).get(60, TimeUnit.SECONDS);

        ConnectionReport report = ConnectionReport.of(List.of(node.address()));
        System.out.print(report.render());
        String syncookies =
            node.readProcFile("/proc/net/netstat").lines().collect(Collectors.joining("\n"));

        assertThat(report.entries()).hasSizeGreaterThanOrEqualTo(2);
        for (ConnectionReport.Entry e : report.entries()) {
          boolean old = beforePorts.contains(e.local().getPort());
          List<String> ids = e.findings().stream().map(Finding::id).toList();
          if (old) {
            assertThat(ids).as("connection from before the rule, %s", e.local()).isEmpty();
          } else {
            assertThat(ids)
                .as("connection through a cookie without timestamps, %s", e.local())
                .containsExactly("KAFKA_WINDOW_SCALING_OFF");
            Finding f = e.findings().get(0);
            assertThat((Long) f.evidence().get("window_bytes")).isLessThanOrEqualTo(65_535L);
            assertThat((Long) f.evidence().get("ceiling_bytes_per_second")).isPositive();
          }
        }
        assertThat(report.entries()).anySatisfy(e -> assertThat(e.findings()).isNotEmpty());
        assertThat(report.entries()).anySatisfy(e -> assertThat(e.findings()).isEmpty());
        assertThat(syncookies).contains("SyncookiesSent");
      }
    } finally {
      inBrokerNsQuietly(pid, "nft", "delete", "table", "inet", "faultline");
      inBrokerNsQuietly(pid, "sh", "-c", "echo 1 > /proc/sys/net/ipv4/tcp_syncookies");
    }
  }

  private static KafkaProducer<String, String> producer(KafkaCluster kafka, String id) {
    return new KafkaProducer<>(
        kafka.clientProperties(Map.of("client.id", "wscale-" + id, "acks", "all")),
        new StringSerializer(),
        new StringSerializer());
  }

  /** Local ports of this process's established sockets to {@code broker}. */
  private static Set<Integer> localPorts(InetSocketAddress broker) {
    return ConnectionReport.of(List.of(broker)).entries().stream()
        .map(e -> e.local().getPort())
        .collect(Collectors.toSet());
  }

  /** The PID of the container whose address is {@code address}, from the docker CLI. */
  private static String containerPid(InetSocketAddress address) throws Exception {
    String ids = run("docker", "ps", "-q").trim();
    for (String id : ids.split("\\s+")) {
      String line =
          run(
                  "docker",
                  "inspect",
                  "-f",
                  "{{.State.Pid}} {{range .NetworkSettings.Networks}}{{.IPAddress}} {{end}}",
                  id)
              .trim();
      String[] parts = line.split("\\s+");
      for (int i = 1; i < parts.length; i++) {
        if (parts[i].equals(address.getAddress().getHostAddress())) {
          return parts[0];
        }
      }
    }
    throw new IllegalStateException("no container has address " + address);
  }

  private static void inBrokerNs(String pid, String... command) throws Exception {
    String[] full = new String[command.length + 4];
    full[0] = "nsenter";
    full[1] = "-t";
    full[2] = pid;
    full[3] = "-n";
    System.arraycopy(command, 0, full, 4, command.length);
    run(full);
  }

  private static void inBrokerNsQuietly(String pid, String... command) {
    try {
      inBrokerNs(pid, command);
    } catch (Exception e) {
      System.out.println("[faultline-it] cleanup: " + e.getMessage());
    }
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
    return out;
  }

  private static boolean works(String... command) {
    try {
      run(command);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private static boolean isRoot() {
    try {
      return Files.readString(Paths.get("/proc/self/status"))
          .lines()
          .filter(l -> l.startsWith("Uid:"))
          .anyMatch(l -> l.split("\\s+")[1].equals("0"));
    } catch (IOException e) {
      return false;
    }
  }
}
