package io.faultline.it.agent;

import io.faultline.it.servers.KafkaNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The Tencent CKafka incident's handshake in one broker container's network namespace (brief,
 * section 4): SYN cookies forced ({@code tcp_syncookies=2}) and an nftables rule that strips the
 * timestamp option from SYNs to the broker port, as the NAT gateway did. A connection made while it
 * is on has no window scaling. {@link #lift()} restores the namespace; {@link #close()} lifts it if
 * still on. Needs root, {@code nsenter} (or iproute2 for a {@link VethNamespace}) and {@code nft}.
 */
final class LostWindowScaleRule implements AutoCloseable {

  private final List<String> enter;
  private boolean on;

  private LostWindowScaleRule(List<String> enter) {
    this.enter = enter;
  }

  /** Puts the rule on in {@code node}'s namespace. */
  static LostWindowScaleRule on(KafkaNode node) throws Exception {
    String pid =
        Long.toString(
            node.networkNamespacePid()
                .orElseThrow(
                    () -> new IllegalStateException("node " + node.id() + " is no container")));
    return on(List.of("nsenter", "-t", pid, "-n"), node.address().getPort());
  }

  /** Puts the rule on in {@code ns}, for SYNs to {@code port}. */
  static LostWindowScaleRule on(VethNamespace ns, int port) throws Exception {
    return on(List.of(ns.prefix()), port);
  }

  private static LostWindowScaleRule on(List<String> enter, int port) throws Exception {
    LostWindowScaleRule rule = new LostWindowScaleRule(enter);
    rule.on = true;
    try {
      rule.inNs("sh", "-c", "echo 2 > /proc/sys/net/ipv4/tcp_syncookies");
      rule.inNs("nft", "add", "table", "inet", "faultline");
      rule.inNs(
          "nft",
          "add",
          "chain",
          "inet",
          "faultline",
          "pre",
          "{ type filter hook prerouting priority -300; }");
      rule.inNs(
          "nft",
          "add",
          "rule",
          "inet",
          "faultline",
          "pre",
          "tcp dport " + port + " tcp flags syn reset tcp option timestamp");
    } catch (Exception e) {
      rule.close();
      throw e;
    }
    return rule;
  }

  /** True when this process can do it (root, {@code nsenter}, {@code nft}). */
  static boolean available() {
    try {
      SlowLink.run("nft", "--version");
      return SlowLink.available();
    } catch (Exception e) {
      return false;
    }
  }

  /** Restores normal handshakes: new connections get window scaling again. */
  void lift() throws Exception {
    if (on) {
      on = false;
      inNs("nft", "delete", "table", "inet", "faultline");
      inNs("sh", "-c", "echo 1 > /proc/sys/net/ipv4/tcp_syncookies");
    }
  }

  @Override
  public void close() {
    try {
      lift();
    } catch (Exception e) {
      System.out.println("[faultline-it] could not lift the rule: " + e.getMessage());
    }
  }

  private void inNs(String... command) throws Exception {
    List<String> full = new ArrayList<>(enter);
    full.addAll(List.of(command));
    SlowLink.run(full.toArray(String[]::new));
  }
}
