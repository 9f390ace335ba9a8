package io.faultline.kafka.connection;

import io.faultline.core.Loggers;
import io.faultline.core.finding.Finding;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.ProcNetTcp;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.core.net.TcpState;
import io.faultline.kafka.ClientType;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The TCP facts of this JVM's connections to Kafka brokers, without the agent: finds every
 * established socket of this process whose remote address is a broker's, reads its TCP_INFO, and
 * evaluates it with {@link ConnectionHealth}. One sample proves a handshake without window scaling,
 * not a collapsed window (that needs samples over time, which {@link ConnectionMonitor} takes). Use
 * it with the addresses a client knows ({@link #brokersOf(org.apache.kafka.clients.admin.Admin)},
 * or the bootstrap list).
 *
 * <pre>{@code
 * ConnectionReport report = ConnectionReport.of(ConnectionReport.brokersOf(admin));
 * System.out.print(report.render());
 * }</pre>
 */
public final class ConnectionReport {

  /**
   * One socket to one broker.
   *
   * @param broker the broker address asked for
   * @param local this side's address
   * @param facts the TCP facts, or why there are none
   * @param findings what {@link ConnectionHealth} says about them
   */
  public record Entry(
      InetSocketAddress broker,
      InetSocketAddress local,
      Outcome<TcpFacts> facts,
      List<Finding> findings) {}

  private final List<Entry> entries;
  private final List<String> notFound;

  private ConnectionReport(List<Entry> entries, List<String> notFound) {
    this.entries = List.copyOf(entries);
    this.notFound = List.copyOf(notFound);
  }

  /** The report for this process's connections to {@code brokers}. Never throws. */
  public static ConnectionReport of(Collection<InetSocketAddress> brokers) {
    return of(brokers, Paths.get("/proc/self"), SocketFds.forThisProcess(), TcpInfoReader.create());
  }

  static ConnectionReport of(
      Collection<InetSocketAddress> brokers, Path procSelf, SocketFds fds, TcpInfoReader reader) {
    List<ProcNetTcp.Entry> sockets = establishedSockets(procSelf);
    List<Entry> entries = new ArrayList<>();
    List<String> notFound = new ArrayList<>();
    for (InetSocketAddress broker : brokers) {
      InetSocketAddress resolved =
          broker.isUnresolved()
              ? new InetSocketAddress(broker.getHostString(), broker.getPort())
              : broker;
      boolean any = false;
      for (ProcNetTcp.Entry socket : sockets) {
        if (!sameEndpoint(socket.remote(), resolved)) {
          continue;
        }
        any = true;
        InetSocketAddress local = socket.local();
        BrokerConnection connection =
            new BrokerConnection(
                ClientType.OTHER,
                "local port " + local.getPort(),
                "",
                resolved,
                () -> fds.byAddress(resolved, local),
                reader);
        Outcome<TcpFacts> facts = connection.sample();
        List<Finding> findings =
            facts.value().map(f -> ConnectionHealth.evaluate(connection, f)).orElse(List.of());
        entries.add(new Entry(resolved, local, facts, findings));
      }
      if (!any) {
        notFound.add(resolved.toString());
      }
    }
    return new ConnectionReport(entries, notFound);
  }

  /**
   * The broker addresses of the cluster {@code admin} talks to ({@code describeCluster}); empty
   * when the cluster does not answer within 30 s. Never throws.
   */
  public static List<InetSocketAddress> brokersOf(org.apache.kafka.clients.admin.Admin admin) {
    List<InetSocketAddress> addresses = new ArrayList<>();
    try {
      for (org.apache.kafka.common.Node node :
          admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)) {
        addresses.add(new InetSocketAddress(node.host(), node.port()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      Loggers.get(ConnectionReport.class.getName())
          .log(System.Logger.Level.INFO, "Faultline: cannot list the brokers: " + e);
    }
    return addresses;
  }

  /** Parses {@code host:port,host:port} (a {@code bootstrap.servers} value). */
  public static List<InetSocketAddress> parseBootstrap(String bootstrapServers) {
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (String part : Objects.requireNonNull(bootstrapServers, "bootstrapServers").split(",")) {
      String s = part.trim();
      int colon = s.lastIndexOf(':');
      if (s.isEmpty() || colon <= 0) {
        continue;
      }
      String host = s.substring(0, colon).replace("[", "").replace("]", "");
      try {
        addresses.add(new InetSocketAddress(host, Integer.parseInt(s.substring(colon + 1))));
      } catch (IllegalArgumentException e) {
        // not host:port; skipped, like the client would reject it
      }
    }
    return addresses;
  }

  /** One entry per socket found. */
  public List<Entry> entries() {
    return entries;
  }

  /** Broker addresses this process has no established socket to. */
  public List<String> notFound() {
    return notFound;
  }

  /** Every finding of every entry. */
  public List<Finding> findings() {
    List<Finding> all = new ArrayList<>();
    entries.forEach(e -> all.addAll(e.findings()));
    return all;
  }

  /** A plain-text table, one line per socket, then the findings. */
  public String render() {
    StringBuilder b = new StringBuilder("Kafka broker connections of this JVM\n");
    for (Entry e : entries) {
      b.append("  ")
          .append(e.broker())
          .append(" from ")
          .append(e.local())
          .append(": ")
          .append(
              e.facts()
                  .value()
                  .map(TcpFacts::describe)
                  .orElse("unavailable: " + e.facts().reason().orElse("")))
          .append('\n');
      for (Finding f : e.findings()) {
        b.append("    ").append(f.id()).append(": ").append(f.message()).append('\n');
      }
    }
    for (String missing : notFound) {
      b.append("  ").append(missing).append(": no established connection from this JVM\n");
    }
    return b.toString();
  }

  private static List<ProcNetTcp.Entry> establishedSockets(Path procSelf) {
    ProcNetTcp parser = ProcNetTcp.nativeOrder();
    java.util.Set<Long> own = ownSocketInodes(procSelf);
    List<ProcNetTcp.Entry> sockets = new ArrayList<>();
    for (String table : List.of("net/tcp6", "net/tcp")) {
      try {
        for (ProcNetTcp.Entry e : parser.parse(Files.readAllLines(procSelf.resolve(table)))) {
          // The tables list the whole network namespace; keep this process's sockets.
          if (e.state() == TcpState.ESTABLISHED && own.contains(e.inode())) {
            sockets.add(e);
          }
        }
      } catch (IOException | RuntimeException e) {
        // that table is absent (no IPv6, or not Linux): the other may still answer
      }
    }
    return sockets;
  }

  private static java.util.Set<Long> ownSocketInodes(Path procSelf) {
    java.util.Set<Long> inodes = new java.util.HashSet<>();
    try (java.nio.file.DirectoryStream<Path> dir =
        Files.newDirectoryStream(procSelf.resolve("fd"))) {
      for (Path fd : dir) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[") && target.endsWith("]")) {
            inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
          }
        } catch (IOException | RuntimeException e) {
          // closed meanwhile, or not a link
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: nothing is ours
    }
    return inodes;
  }

  private static boolean sameEndpoint(InetSocketAddress row, InetSocketAddress wanted) {
    if (row.getPort() != wanted.getPort()) {
      return false;
    }
    if (wanted.isUnresolved()) {
      return false;
    }
    return row.getAddress().equals(wanted.getAddress());
  }
}
