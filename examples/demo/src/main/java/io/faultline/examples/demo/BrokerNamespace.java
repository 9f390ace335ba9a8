package io.faultline.examples.demo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A network namespace of the demo's own for the broker, joined to the host by a veth pair
 * (10.213.x.1 on the host, 10.213.x.2 in the namespace): the broker's kernel settings — SYN
 * cookies, an nftables rule — can then be changed without touching the host's. Needs root and
 * {@code ip}, {@code nft}; {@link #create} says why when it cannot.
 */
final class BrokerNamespace implements AutoCloseable {

  private final String name;
  private final String hostSide;
  private final String brokerAddress;

  private BrokerNamespace(String name, String hostSide, String brokerAddress) {
    this.name = name;
    this.hostSide = hostSide;
    this.brokerAddress = brokerAddress;
  }

  /** The namespace, or why it cannot be made here. */
  static Result create() {
    if (!"root".equals(System.getProperty("user.name"))) {
      return new Result(
          null, "needs root (to make a network namespace and change its TCP settings)");
    }
    for (String tool : List.of("ip", "nft")) {
      if (!works(tool, "-V")) {
        return new Result(null, "'" + tool + "' is not installed");
      }
    }
    long id = ProcessHandle.current().pid() % 100_000;
    String name = "fldemo" + id;
    String host = "fldh" + id;
    String peer = "fldn" + id;
    int subnet = ThreadLocalRandom.current().nextInt(1, 250);
    String prefix = "10.213." + subnet + ".";
    BrokerNamespace ns = new BrokerNamespace(name, host, prefix + "2");
    try {
      ns.run("ip", "netns", "add", name);
      ns.run("ip", "link", "add", host, "type", "veth", "peer", "name", peer);
      ns.run("ip", "link", "set", peer, "netns", name);
      ns.run("ip", "addr", "add", prefix + "1/24", "dev", host);
      ns.run("ip", "link", "set", host, "up");
      ns.inside("ip", "addr", "add", prefix + "2/24", "dev", peer);
      ns.inside("ip", "link", "set", peer, "up");
      ns.inside("ip", "link", "set", "lo", "up");
      return new Result(ns, null);
    } catch (IOException e) {
      ns.close();
      return new Result(null, "could not make a network namespace: " + e.getMessage());
    }
  }

  /** A namespace, or the reason there is none. */
  record Result(BrokerNamespace namespace, String whyNot) {
    Optional<BrokerNamespace> get() {
      return Optional.ofNullable(namespace);
    }
  }

  /** The broker's address, inside the namespace. */
  String brokerAddress() {
    return brokerAddress;
  }

  /** The prefix that runs a command inside the namespace. */
  List<String> commandPrefix() {
    return List.of("ip", "netns", "exec", name);
  }

  /**
   * The Tencent CKafka incident's handshake for new connections to {@code ports}: SYN cookies for
   * every SYN, and the timestamp option stripped from incoming SYNs (the NAT gateway's doing), so
   * the cookie cannot carry window scaling.
   */
  void loseWindowScaling(List<Integer> ports) throws IOException {
    inside("sysctl", "-q", "-w", "net.ipv4.tcp_syncookies=2");
    inside("nft", "add", "table", "inet", "fldemo");
    inside(
        "nft",
        "add",
        "chain",
        "inet",
        "fldemo",
        "pre",
        "{ type filter hook prerouting priority -300; }");
    inside(
        "nft",
        "add",
        "rule",
        "inet",
        "fldemo",
        "pre",
        "tcp dport { "
            + ports.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))
            + " } tcp flags syn reset tcp option timestamp");
  }

  /** Undoes {@link #loseWindowScaling}. */
  void restoreHandshake() {
    try {
      inside("nft", "delete", "table", "inet", "fldemo");
    } catch (IOException e) {
      // no table: nothing to undo
    }
    try {
      inside("sysctl", "-q", "-w", "net.ipv4.tcp_syncookies=1");
    } catch (IOException e) {
      // the namespace is deleted at the end anyway
    }
  }

  /** SyncookiesSent of the namespace's {@code /proc/net/netstat}. */
  long syncookiesSent() {
    try {
      String out = capture(commandPrefix(), "cat", "/proc/net/netstat");
      String[] lines = out.split("\n");
      for (int i = 0; i + 1 < lines.length; i++) {
        if (lines[i].startsWith("TcpExt:") && lines[i + 1].startsWith("TcpExt:")) {
          String[] names = lines[i].trim().split("\\s+");
          String[] values = lines[i + 1].trim().split("\\s+");
          for (int k = 0; k < names.length && k < values.length; k++) {
            if (names[k].equals("SyncookiesSent")) {
              return Long.parseLong(values[k]);
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // reported as unknown
    }
    return -1;
  }

  private void inside(String... command) throws IOException {
    List<String> full = new ArrayList<>(commandPrefix());
    full.addAll(List.of(command));
    run(full.toArray(String[]::new));
  }

  private void run(String... command) throws IOException {
    capture(List.of(), command);
  }

  private static String capture(List<String> prefix, String... command) throws IOException {
    List<String> full = new ArrayList<>(prefix);
    full.addAll(List.of(command));
    Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", full) + " did not finish");
      }
      String out = new String(p.getInputStream().readAllBytes());
      if (p.exitValue() != 0) {
        throw new IOException(String.join(" ", full) + ": " + out.strip());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static boolean works(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Deletes the namespace (its end of the veth pair goes with it, and so does the host's end). */
  @Override
  public void close() {
    try {
      run("ip", "netns", "delete", name);
    } catch (IOException e) {
      // not made, or already gone
    }
    try {
      run("ip", "link", "delete", hostSide);
    } catch (IOException e) {
      // gone with the namespace
    }
  }
}
