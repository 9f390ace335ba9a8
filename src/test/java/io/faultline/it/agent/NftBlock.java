package io.faultline.it.agent;

import io.faultline.it.servers.KafkaNode;
import java.util.ArrayList;
import java.util.List;

/**
 * nftables rules of the chaos tests in a table of their own, in one broker container's network
 * namespace ({@code nsenter}) or in the host's: an input and an output chain, both ahead of
 * connection tracking and NAT (priority -300), holding the rules given (e.g. {@code tcp dport 9092
 * drop}). {@link #lift()} deletes the table; {@link #close()} lifts it if still on. Needs root,
 * {@code nsenter} and {@code nft}.
 */
final class NftBlock implements AutoCloseable {

  private final List<String> enter;
  private final String table;
  private boolean on;

  private NftBlock(List<String> enter, String table) {
    this.enter = enter;
    this.table = table;
  }

  /** Puts {@code inputRules} and {@code outputRules} on in {@code node}'s network namespace. */
  static NftBlock inNamespaceOf(KafkaNode node, List<String> inputRules, List<String> outputRules)
      throws Exception {
    String pid =
        Long.toString(
            node.networkNamespacePid()
                .orElseThrow(
                    () -> new IllegalStateException("node " + node.id() + " is no container")));
    return on(List.of("nsenter", "-t", pid, "-n"), "flchaos", inputRules, outputRules);
  }

  /**
   * Puts the rules on in the host's namespace, in a table named after this JVM (other builds on the
   * host may have tables of their own): they apply to every process on the host, so rules given
   * here must match only this test's traffic (its server's port).
   */
  static NftBlock onHost(List<String> inputRules, List<String> outputRules) throws Exception {
    return on(List.of(), "flchaos" + ProcessHandle.current().pid(), inputRules, outputRules);
  }

  private static NftBlock on(
      List<String> enter, String table, List<String> inputRules, List<String> outputRules)
      throws Exception {
    NftBlock block = new NftBlock(enter, table);
    block.on = true;
    try {
      block.nft("add", "table", "inet", table);
      block.nft("add", "chain", "inet", table, "in", "{ type filter hook input priority -300; }");
      block.nft("add", "chain", "inet", table, "out", "{ type filter hook output priority -300; }");
      for (String rule : inputRules) {
        block.nft("add", "rule", "inet", table, "in", rule);
      }
      for (String rule : outputRules) {
        block.nft("add", "rule", "inet", table, "out", rule);
      }
    } catch (Exception e) {
      block.close();
      throw e;
    }
    return block;
  }

  /** True when this process can do it (root, {@code nsenter}, {@code nft}). */
  static boolean available() {
    return LostWindowScaleRule.available();
  }

  /** Deletes the rules. */
  void lift() throws Exception {
    if (on) {
      on = false;
      nft("delete", "table", "inet", table);
    }
  }

  @Override
  public void close() {
    try {
      lift();
    } catch (Exception e) {
      System.out.println("[faultline-it] could not lift the nft rules: " + e.getMessage());
    }
  }

  private void nft(String... args) throws Exception {
    List<String> full = new ArrayList<>(enter);
    full.add("nft");
    full.addAll(List.of(args));
    SlowLink.run(full.toArray(String[]::new));
  }
}
