package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.it.servers.KafkaCluster;
import io.faultline.it.servers.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent in environments that take away what it reads or writes, with a service producing and
 * consuming on a real broker: {@code /proc} files a hardened container masks (empty where the agent
 * expects counters, tables and sysctls), and a temporary directory with no space left (the agent
 * must need none of it). Each runs the service in a mount namespace of its own ({@code unshare
 * --mount}); the service must produce and consume as without the agent, the agent must go on with
 * what it can read and say what it cannot, and it must count no error of its own. Needs root.
 */
@ExtendWith(RealServers.class)
@Timeout(240)
class HostileEnvironmentTest {

  /** Files a hardened profile may mask; the agent reads each. */
  private static final String[] MASKED = {
    "/proc/self/net/netstat",
    "/proc/self/net/snmp",
    "/proc/self/net/tcp",
    "/proc/self/net/tcp6",
    "/proc/self/net/softnet_stat",
    "/proc/sys/net/core/somaxconn",
    "/proc/sys/net/ipv4/tcp_window_scaling",
    "/proc/sys/net/ipv4/tcp_congestion_control",
    "/proc/softirqs",
  };

  @Test
  void procFilesMaskedTheServiceRunsAndTheAgentSaysWhatItCannotRead(KafkaCluster kafka)
      throws Exception {
    StringBuilder mounts = new StringBuilder();
    for (String file : MASKED) {
      // Each masked file reads as empty, as a bind mount of /dev/null over it makes it.
      mounts.append("mount --bind /dev/null ").append(file).append(" && ");
    }
    Outcome out = runService(kafka, "proc-masked", mounts.toString(), List.of());
    // The host doctor's table says which checks it could not read.
    assertThat(out.statusPage())
        .contains(">UNKNOWN</td>")
        .contains("cannot read net.core.somaxconn or net.ipv4.tcp_max_syn_backlog")
        .contains("cannot read NET_RX from /proc/softirqs");
    System.out.println("HOSTILE proc-masked: " + summary(out.stderr()));
  }

  @Test
  void temporaryDirectoryFullTheServiceRunsAndTheAgentLosesNothing(KafkaCluster kafka)
      throws Exception {
    Path full = Files.createTempDirectory("faultline-full-tmp");
    // A 64 KiB file system filled to the last block: nothing more can be written there.
    String setUp =
        "mount -t tmpfs -o size=64k tmpfs "
            + full
            + " && (dd if=/dev/zero of="
            + full.resolve("fill")
            + " bs=4k 2>/dev/null || true) && ";
    Outcome out = runService(kafka, "tmp-full", setUp, List.of("-Djava.io.tmpdir=" + full));
    // The agent writes nothing there: the JDK socket module's bridge classes are defined in the
    // bootstrap loader from memory, so the module stays on.
    assertThat(out.stderr()).doesNotContain("jdk-socket-connect is off");
    assertThat(out.agentJson()).contains("\"name\":\"jdk-socket-connect\",\"state\":\"ACTIVE\"");
    System.out.println("HOSTILE tmp-full: " + summary(out.stderr()));
  }

  /** What the agent said: its status JSON, its status page, the child's error output. */
  private record Outcome(String agentJson, String statusPage, String stderr) {}

  /**
   * Runs the traffic app with the agent in a new mount namespace after {@code setUp} (shell
   * commands, each ending in {@code &&}).
   */
  private static Outcome runService(
      KafkaCluster kafka, String name, String setUp, List<String> options) throws Exception {
    assumeTrue(NetworkNamespace.available(), "needs root for a mount namespace");
    String topic = "hostile-" + UUID.randomUUID().toString().substring(0, 8);
    kafka.createTopic(topic, 1);
    int port = Http.freePort();
    Path ready = KafkaTraffic.readyFile();
    ChildJvm child =
        KafkaTraffic.withClients(
            ChildJvm.on(Jdk.current())
                .prefix(
                    "unshare",
                    "--mount",
                    "--propagation",
                    "private",
                    "sh",
                    "-c",
                    setUp + "exec \"$@\"",
                    "sh")
                .agentArgs(
                    "prometheus.port="
                        + port
                        + ",kafka.tcp.interval=1s,kafka.phases.delivery-after=0ms"));
    options.forEach(child::option);
    String agent;
    String page;
    String metrics;
    ChildJvm.Result result;
    try (ChildJvm.Running running = KafkaTraffic.start(child, kafka, topic, 400, 2000, ready)) {
      KafkaTraffic.awaitReady(running, ready);
      assertThat(Files.readString(ready)).isEqualTo("produced=400 consumed=400");
      String base = "http://127.0.0.1:" + port;
      metrics =
          Http.awaitMetrics(
              base + "/metrics",
              java.time.Duration.ofSeconds(30),
              m -> StartupChecks.producePhases(m) > 0);
      agent = Http.get(base + "/faultline/agent").body();
      page = Http.get(base + "/").body();
      running.send("stop");
      result = running.awaitExit(60);
    }
    ChildJvm.save("hostile-" + name + ".txt", result.stdout() + "\n" + result.stderr());
    result.assertCleanExit();
    PrometheusText m = PrometheusText.parse(metrics);
    assertThat(StartupChecks.producePhases(m)).as("produce requests timed").isPositive();
    assertThat(m.sum("faultline_agent_errors_total", Map.of()))
        .as("errors the agent caught in itself")
        .isZero();
    assertThat(agent).contains("\"errors\":0");
    assertThat(result.stderr())
        .as("the child's error output: no stack trace")
        .doesNotContainPattern("(?m)^\\s+at ")
        .doesNotContain("Exception in thread")
        .doesNotContain(ChildJvm.ERRORS_AT_EXIT);
    return new Outcome(agent, page, result.stderr());
  }

  /** The agent's own account of what it could read, for the test output. */
  private static String summary(String stderr) {
    StringBuilder s = new StringBuilder();
    for (String line : stderr.split("\n")) {
      if (line.contains("faultline:") && !line.contains("[INFO]")) {
        s.append("\n  ").append(line.strip());
      }
    }
    return s.toString();
  }
}
