package io.faultline.it.agent;

import io.faultline.it.servers.KafkaNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A slow path into one broker container: a {@code tbf} rate limit on the host side of the
 * container's veth pair, so every byte sent <em>to</em> the broker — the client's requests —
 * crosses a slow link, while the broker's own timers see nothing of it. Needs root and {@code tc};
 * {@link #close()} removes the qdisc.
 */
final class SlowLink implements AutoCloseable {

  private static final Pattern PEER = Pattern.compile("eth0@if(\\d+)");

  private final String hostInterface;
  private final String description;

  private SlowLink(String hostInterface, String description) {
    this.hostInterface = hostInterface;
    this.description = description;
  }

  /**
   * Shapes traffic into {@code node}.
   *
   * @param rate a {@code tc} rate such as {@code 3mbit}
   */
  static SlowLink into(KafkaNode node, String rate) throws Exception {
    long pid =
        node.networkNamespacePid()
            .orElseThrow(() -> new IllegalStateException("node " + node.id() + " is no container"));
    // Netlink, not /sys: sysfs shows the namespace it was mounted in, not the one entered.
    String link =
        run("nsenter", "-t", Long.toString(pid), "-n", "ip", "-o", "link", "show", "eth0");
    Matcher peer = PEER.matcher(link);
    if (!peer.find()) {
      throw new IllegalStateException("no veth peer in: " + link);
    }
    String veth = hostInterfaceWithIndex(peer.group(1));
    // tbf, not netem: this kernel has no netem. The queue holds 200 ms at the rate: more than a
    // small send buffer can put in flight, so the link is slow but drops nothing.
    run(
        "tc", "qdisc", "add", "dev", veth, "root", "tbf", "rate", rate, "burst", "16kb", "latency",
        "200ms");
    return new SlowLink(veth, rate + " (tbf) into node " + node.id());
  }

  /** What was shaped, for the test output. */
  String description() {
    return description;
  }

  @Override
  public void close() {
    try {
      run("tc", "qdisc", "del", "dev", hostInterface, "root");
    } catch (Exception e) {
      System.out.println("[faultline-it] could not remove the qdisc: " + e.getMessage());
    }
  }

  /** True when this process can shape interfaces (root, {@code tc} and {@code nsenter}). */
  static boolean available() {
    try {
      run("tc", "-V");
      run("nsenter", "--version");
      return Files.readString(Path.of("/proc/self/status"))
          .lines()
          .filter(l -> l.startsWith("Uid:"))
          .anyMatch(l -> l.split("\\s+")[1].equals("0"));
    } catch (Exception e) {
      return false;
    }
  }

  private static String hostInterfaceWithIndex(String index) throws Exception {
    try (Stream<Path> links = Files.list(Path.of("/sys/class/net"))) {
      for (Path link : (Iterable<Path>) links::iterator) {
        Path file = link.resolve("ifindex");
        if (Files.exists(file) && Files.readString(file).trim().equals(index)) {
          return link.getFileName().toString();
        }
      }
    }
    throw new IllegalStateException("no host interface has index " + index);
  }

  static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
    return out;
  }
}
