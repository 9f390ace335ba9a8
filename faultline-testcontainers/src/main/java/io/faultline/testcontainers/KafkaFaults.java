package io.faultline.testcontainers;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.containers.GenericContainer;

/**
 * The Kafka incidents' network faults on one broker container a test already runs: Testcontainers'
 * {@code KafkaContainer} or {@code ConfluentKafkaContainer}, or a {@code GenericContainer} running
 * a broker.
 *
 * <pre>{@code
 * @Container
 * static KafkaContainer kafka = KafkaFaults.prepare(new KafkaContainer("apache/kafka:4.1.0"));
 *
 * @AutoClose KafkaFaults faults = KafkaFaults.on(kafka);
 *
 * @Test
 * void producerKeepsItsLatencyWhenReconnectsLoseWindowScaling() {
 *   faults.loseWindowScaling();             // on until the test ends
 *   ...
 * }
 * }</pre>
 *
 * <p>The faults change the container's network namespace, which needs the {@code NET_ADMIN}
 * capability the engine grants only at creation: {@link #prepare} adds it (and forces SYN cookies,
 * which {@link #loseWindowScaling()} needs). The tools run as root inside the container when its
 * image has them ({@code nft} for {@link #loseWindowScaling()}, {@code tc} for {@link
 * #slowLink(String)}), else from the host through {@code nsenter} when the tests run as root on the
 * Docker host; when neither works the call fails naming what is missing and the fix. Each fault is
 * a {@link NetworkFault} that {@link NetworkFault#close()} takes out again; closing this closes
 * every fault it made (JUnit's {@code @AutoClose} does it after each test).
 */
public final class KafkaFaults implements AutoCloseable {

  /** The nftables table {@link #loseWindowScaling()} adds. */
  static final String NFT_TABLE = "faultline_wscale";

  private static final Pattern RATE =
      Pattern.compile("\\d+(\\.\\d+)?(bit|kbit|mbit|gbit|bps|kbps|mbps|gbps)");

  private final ContainerState container;
  private final boolean allowHost;
  private final String device;
  // Shared with the variants made by insideContainerOnly() and onInterface(): closing any closes
  // all.
  private final List<NetworkFault> held;

  private KafkaFaults(
      ContainerState container, boolean allowHost, String device, List<NetworkFault> held) {
    this.container = Objects.requireNonNull(container, "container");
    this.allowHost = allowHost;
    this.device = device;
    this.held = held;
  }

  /** Faults on the broker in {@code container}, which must be started before a fault is made. */
  public static KafkaFaults on(ContainerState container) {
    return new KafkaFaults(container, true, "eth0", new ArrayList<>());
  }

  /**
   * The same faults, run only inside the container: never through {@code nsenter} from the host, as
   * on an engine the tests do not run beside (Docker Desktop, a remote engine, Testcontainers
   * Cloud). Use it to see in a local run what a CI engine will refuse. It shares this one's faults:
   * closing either closes all.
   */
  public KafkaFaults insideContainerOnly() {
    return new KafkaFaults(container, false, device, held);
  }

  /**
   * The same faults, with {@link #slowLink} on {@code interfaceName} instead of {@code eth0} (a
   * container on several networks has one interface per network). It shares this one's faults.
   */
  public KafkaFaults onInterface(String interfaceName) {
    return new KafkaFaults(container, allowHost, Objects.requireNonNull(interfaceName), held);
  }

  /**
   * Prepares {@code container}, before it starts, for the faults: adds the {@code NET_ADMIN}
   * capability and sets {@code net.ipv4.tcp_syncookies=2} in its network namespace (SYN cookies for
   * every connection; with SYN timestamps intact a cookie still carries window scaling, so nothing
   * changes until {@link #loseWindowScaling()} strips them). Both can only be set at creation.
   */
  public static <C extends GenericContainer<?>> C prepare(C container) {
    container.withCreateContainerCmdModifier(
        cmd -> {
          HostConfig hostConfig = cmd.getHostConfig();
          Set<Capability> caps = new LinkedHashSet<>();
          if (hostConfig.getCapAdd() != null) {
            caps.addAll(Arrays.asList(hostConfig.getCapAdd()));
          }
          caps.add(Capability.NET_ADMIN);
          hostConfig.withCapAdd(caps.toArray(Capability[]::new));
          withSysctls(hostConfig, Map.of("net.ipv4.tcp_syncookies", "2"));
        });
    return container;
  }

  /**
   * Gives {@code container}, before it starts, a listen queue of {@code backlog} connections on
   * every port, as a broker under a reconnect storm has too few: {@code net.core.somaxconn} and
   * {@code net.ipv4.tcp_max_syn_backlog} of its network namespace are set to {@code backlog}, and
   * the kernel caps every {@code listen()} (the broker's {@code socket.listen.backlog.size}
   * included) at it. SYN cookies stay on (the kernel default), so an overflowing SYN queue is
   * answered with cookies and a full accept queue drops connections; {@link #listenQueue()} counts
   * both. A listen queue is sized when the broker starts listening, so this lasts as long as the
   * container: no capability is needed.
   *
   * @param backlog connections, at least 1
   */
  public static <C extends GenericContainer<?>> C smallListenBacklog(C container, int backlog) {
    if (backlog < 1) {
      throw new IllegalArgumentException("smallListenBacklog: backlog must be at least 1");
    }
    String value = Integer.toString(backlog);
    container.withCreateContainerCmdModifier(
        cmd ->
            withSysctls(
                cmd.getHostConfig(),
                Map.of("net.core.somaxconn", value, "net.ipv4.tcp_max_syn_backlog", value)));
    return container;
  }

  private static void withSysctls(HostConfig hostConfig, Map<String, String> sysctls) {
    Map<String, String> all = new HashMap<>();
    if (hostConfig.getSysctls() != null) {
      all.putAll(hostConfig.getSysctls());
    }
    all.putAll(sysctls);
    hostConfig.withSysctls(all);
  }

  /**
   * The Tencent CKafka incident's handshake: SYN cookies forced and the timestamp option stripped
   * from every SYN entering the broker's namespace (an nftables rule at the front of prerouting),
   * as the NAT gateway did. A connection made while this is on comes through a cookie without
   * timestamps, so it has no window scaling: its receive window stays at 64 KiB, and its throughput
   * at one window per round trip. Connections made before keep theirs.
   *
   * <p>Needs {@code NET_ADMIN} and {@code nft}; SYN cookies forced ({@code tcp_syncookies=2}) by
   * {@link #prepare}, or set here when entering from the host.
   */
  public NetworkFault loseWindowScaling() {
    String fault = "loseWindowScaling";
    NamespaceShell shell = NamespaceShell.forFault(container, fault, allowHost, "nft");
    String cookies = shell.run("cat", "/proc/sys/net/ipv4/tcp_syncookies").trim();
    boolean setCookies = !cookies.equals("2");
    if (setCookies) {
      try {
        shell.run("sh", "-c", "echo 2 > /proc/sys/net/ipv4/tcp_syncookies");
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            fault
                + ": the broker's namespace has net.ipv4.tcp_syncookies="
                + cookies
                + " and it cannot be changed in a running container. Create the container with"
                + " KafkaFaults.prepare(container) (it sets net.ipv4.tcp_syncookies=2 and adds"
                + " NET_ADMIN). ("
                + e.getMessage()
                + ")",
            e);
      }
    }
    Runnable undo =
        () -> {
          shell.runQuietly("nft", "delete", "table", "inet", NFT_TABLE);
          if (setCookies) {
            shell.runQuietly(
                "sh", "-c", "echo " + cookies + " > /proc/sys/net/ipv4/tcp_syncookies");
          }
        };
    try {
      shell.run("nft", "add", "table", "inet", NFT_TABLE);
      shell.run(
          "nft",
          "add",
          "chain",
          "inet",
          NFT_TABLE,
          "pre",
          "{ type filter hook prerouting priority -300; }");
      // Every SYN from outside (clients and other brokers), not loopback: the broker's own
      // controller connections are no NAT gateway's business.
      shell.run(
          "nft",
          "add",
          "rule",
          "inet",
          NFT_TABLE,
          "pre",
          "iifname",
          "!=",
          "lo",
          "tcp",
          "flags",
          "syn",
          "reset",
          "tcp",
          "option",
          "timestamp");
    } catch (RuntimeException e) {
      undo.run();
      throw new IllegalStateException(fault + ": " + e.getMessage(), e);
    }
    return hold("lost window scaling on SYNs into " + name() + " (" + shell.via() + ")", undo);
  }

  /**
   * A slow link out of the broker: a token bucket ({@code tc qdisc ... tbf}) at {@code rate} on its
   * interface, so everything the broker sends — produce responses, fetched records, replication to
   * other brokers — queues. The queue holds 200 ms at the rate; beyond that the link drops, and TCP
   * retransmits.
   *
   * <p>Needs {@code NET_ADMIN} and {@code tc} (iproute2).
   *
   * @param rate a {@code tc} rate such as {@code 1mbit} or {@code 500kbit}
   */
  public NetworkFault slowLink(String rate) {
    Objects.requireNonNull(rate, "rate");
    if (!RATE.matcher(rate).matches()) {
      throw new IllegalArgumentException(
          "slowLink: rate must be a tc rate such as 1mbit or 500kbit, was " + rate);
    }
    NamespaceShell shell = NamespaceShell.forFault(container, "slowLink", allowHost, "tc");
    try {
      shell.run(
          "tc", "qdisc", "add", "dev", device, "root", "tbf", "rate", rate, "burst", "16kb",
          "latency", "200ms");
    } catch (RuntimeException e) {
      throw new IllegalStateException("slowLink: " + e.getMessage(), e);
    }
    return hold(
        "slow link " + rate + " out of " + name() + " (tbf on " + device + ", " + shell.via() + ")",
        () -> shell.runQuietly("tc", "qdisc", "del", "dev", device, "root"));
  }

  /**
   * The queueing statistics of the broker's interface ({@code tc -s qdisc show}), to see a {@link
   * #slowLink} at work: its {@code overlimits} count the packets it held back.
   */
  public String linkStatistics() {
    return NamespaceShell.forFault(container, "linkStatistics", allowHost, "tc")
        .run("tc", "-s", "qdisc", "show", "dev", device);
  }

  /**
   * The listen-queue counters of the broker's namespace now. Needs no capability, only {@code cat}
   * in the image.
   */
  public ListenQueue listenQueue() {
    try {
      ExecResult r = container.execInContainer("cat", "/proc/net/netstat");
      if (r.getExitCode() != 0) {
        throw new IllegalStateException("cannot read /proc/net/netstat: " + r.getStderr());
      }
      return ListenQueue.parse(r.getStdout());
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /proc/net/netstat: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading /proc/net/netstat", e);
    }
  }

  /**
   * The LINE Kafka incident's trigger: the broker stops (a controlled shutdown: its partitions'
   * leadership moves to other brokers), starts again, and once it is back in the ISR a preferred
   * leader election moves leadership back to it — every client reconnects to it at once. Returns
   * when the election is done, within two minutes.
   *
   * <p>Needs no capability: the engine stops and starts the container. The broker must be reached
   * at an address that survives a restart: by the container's own address, or a fixed host port
   * ({@code container.setPortBindings(List.of("19092:9092"))}); a random host port changes on a
   * restart while the broker still advertises the old one. Network faults on this container end
   * with the restart (its namespace is new).
   *
   * @param admin a client of the cluster, which elects the leaders
   */
  public BrokerRestart restartWithPreferredLeaderElection(Admin admin) {
    return restartWithPreferredLeaderElection(admin, Duration.ofMinutes(2));
  }

  /** {@link #restartWithPreferredLeaderElection(Admin)}, waiting at most {@code timeout}. */
  public BrokerRestart restartWithPreferredLeaderElection(Admin admin, Duration timeout) {
    Objects.requireNonNull(admin, "admin");
    DockerClient docker = container.getDockerClient();
    String id = container.getContainerId();
    if (id == null) {
      throw new IllegalStateException("restart: the container has not been started");
    }
    String portsBefore = ports(NamespaceShell.inspect(container));
    long t0 = System.nanoTime();
    stopBroker(docker, id);
    long t1 = System.nanoTime();
    docker.startContainerCmd(id).exec();
    List<NetworkFault> gone;
    synchronized (held) {
      gone = new ArrayList<>(held);
    }
    // The namespace they were in went with the stop: nothing is left to undo.
    gone.forEach(NetworkFault::endedWithNamespace);
    String portsAfter = ports(NamespaceShell.inspect(container));
    String hint =
        portsBefore.equals(portsAfter)
            ? ""
            : ". The container's host ports changed with the restart ("
                + portsBefore
                + " -> "
                + portsAfter
                + ") and the broker may advertise the old ones: bind them to fixed host ports"
                + " (container.setPortBindings(List.of(\"19092:9092\"))) or reach the broker by its"
                + " container address";
    try {
      Set<TopicPartition> elected = PreferredLeaders.elect(admin, timeout, hint);
      return new BrokerRestart(
          Duration.ofNanos(t1 - t0), Duration.ofNanos(System.nanoTime() - t1), elected);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("restart: interrupted waiting for the election", e);
    }
  }

  /**
   * Stops the broker with a controlled shutdown. The signal goes to the broker's JVM, not to the
   * container's first process: Testcontainers' Kafka modules start the broker under {@code sh -c},
   * which as process 1 ignores {@code SIGTERM}, so {@code docker stop} would wait out its timeout
   * and kill the broker without one. The container ends with its broker; a minute later it is
   * stopped regardless.
   */
  private void stopBroker(DockerClient docker, String id) {
    try {
      container.execInContainerWithUser(
          "0",
          "sh",
          "-c",
          "for p in /proc/[0-9]*; do [ \"${p#/proc/}\" = \"$$\" ] && continue;"
              + " tr '\\000' ' ' < \"$p/cmdline\" 2>/dev/null | grep -q ' kafka[.]Kafka '"
              + " && kill -TERM \"${p#/proc/}\"; done; true");
    } catch (IOException e) {
      // The engine's stop below still ends it.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline
        && Boolean.TRUE.equals(docker.inspectContainerCmd(id).exec().getState().getRunning())) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    try {
      docker.stopContainerCmd(id).withTimeout(10).exec();
    } catch (NotModifiedException e) {
      // Stopped already, as it should be.
    }
  }

  /** The host ports each container port is published on, e.g. {@code 9092/tcp=[32779]}. */
  private static String ports(InspectContainerResponse info) {
    if (info.getNetworkSettings() == null || info.getNetworkSettings().getPorts() == null) {
      return "{}";
    }
    Map<String, List<String>> bindings = new TreeMap<>();
    info.getNetworkSettings()
        .getPorts()
        .getBindings()
        .forEach(
            (port, binds) ->
                bindings.put(
                    port.toString(),
                    binds == null
                        ? List.of()
                        : Arrays.stream(binds).map(b -> b.getHostPortSpec()).distinct().toList()));
    return bindings.toString();
  }

  /** Takes out every fault made here and still on. */
  @Override
  public void close() {
    List<NetworkFault> all;
    synchronized (held) {
      all = new ArrayList<>(held);
    }
    all.forEach(NetworkFault::close);
  }

  private NetworkFault hold(String description, Runnable undo) {
    NetworkFault[] self = new NetworkFault[1];
    self[0] =
        new NetworkFault(
            description,
            undo,
            () -> {
              synchronized (held) {
                held.remove(self[0]);
              }
            });
    synchronized (held) {
      held.add(self[0]);
    }
    return self[0];
  }

  private String name() {
    return NamespaceShell.name(NamespaceShell.inspect(container));
  }
}
