package io.faultline.it.agent;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A named network namespace joined to the host by a veth pair ({@code ip netns add}, a /30 in
 * 10.251.0.0/16): a process run {@link #prefix() in it} listens on {@link #inside()}, and this JVM
 * reaches it over a real link, so kernel settings and nftables rules made {@link #exec in the
 * namespace} apply to the connections it accepts and to nothing on the host. {@link #close()}
 * deletes the namespace, and the pair with it. Needs root and iproute2.
 */
final class VethNamespace implements AutoCloseable {

  private final String name;
  private final String inside;
  private final String outside;
  private final String insideDevice;
  private final String outsideDevice;

  private VethNamespace(
      String name, String inside, String outside, String insideDevice, String outsideDevice) {
    this.name = name;
    this.inside = inside;
    this.outside = outside;
    this.insideDevice = insideDevice;
    this.outsideDevice = outsideDevice;
  }

  /**
   * Creates a namespace whose name starts with {@code prefix} (at most 8 characters), on a subnet
   * whose names are free. A pair from a namespace deleted a moment ago can outlive it (the kernel
   * tears namespaces down in the background), so a taken name is skipped, not fatal.
   */
  static VethNamespace create(String prefix) throws Exception {
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 8; attempt++) {
      int subnet = ThreadLocalRandom.current().nextInt(1, 255);
      String name = prefix + "-" + subnet;
      String hostSide = "fl" + subnet + "h";
      String nsSide = "fl" + subnet + "n";
      if (taken(name, hostSide, nsSide)) {
        continue;
      }
      try {
        return create(name, subnet, hostSide, nsSide);
      } catch (IllegalStateException e) {
        if (!String.valueOf(e.getMessage()).contains("File exists")) {
          throw e;
        }
        last = e; // raced with another namespace for the names: try another subnet
      }
    }
    throw new IllegalStateException("no free subnet in 10.251.0.0/16 after 8 tries", last);
  }

  private static boolean taken(String name, String hostSide, String nsSide) {
    return Files.exists(Path.of("/run/netns", name))
        || Files.exists(Path.of("/sys/class/net", hostSide))
        || Files.exists(Path.of("/sys/class/net", nsSide));
  }

  private static VethNamespace create(String name, int subnet, String hostSide, String nsSide)
      throws Exception {
    String outside = "10.251." + subnet + ".1";
    String inside = "10.251." + subnet + ".2";
    run("ip", "netns", "add", name);
    VethNamespace ns = new VethNamespace(name, inside, outside, nsSide, hostSide);
    try {
      run("ip", "link", "add", hostSide, "type", "veth", "peer", "name", nsSide);
    } catch (Exception e) {
      // The names may be another namespace's: only the namespace made here is removed.
      deleteNamespace(name);
      throw e;
    }
    try {
      run("ip", "link", "set", nsSide, "netns", name);
      run("ip", "addr", "add", outside + "/30", "dev", hostSide);
      run("ip", "link", "set", hostSide, "up");
      ns.exec("ip", "addr", "add", inside + "/30", "dev", nsSide);
      ns.exec("ip", "link", "set", nsSide, "up");
      ns.exec("ip", "link", "set", "lo", "up");
      return ns;
    } catch (Exception e) {
      ns.close();
      throw e;
    }
  }

  /** True when this process can make one: root, {@code ip} with netns support. */
  static boolean available() {
    try {
      run("ip", "netns", "list");
      return Files.readString(Path.of("/proc/self/status"))
          .lines()
          .filter(l -> l.startsWith("Uid:"))
          .anyMatch(l -> l.split("\\s+")[1].equals("0"));
    } catch (Exception e) {
      return false;
    }
  }

  /** The namespace's address on the link. */
  String inside() {
    return inside;
  }

  /** The host's address on the link: where connections to {@link #inside()} come from. */
  String outside() {
    return outside;
  }

  /** The namespace's end of the pair: a qdisc on it shapes what the namespace sends. */
  String insideDevice() {
    return insideDevice;
  }

  /** The host's end of the pair: what the namespace sends arrives on it. */
  String outsideDevice() {
    return outsideDevice;
  }

  /** The prefix that runs a command in the namespace. */
  String[] prefix() {
    return new String[] {"ip", "netns", "exec", name};
  }

  /** Runs {@code command} in the namespace; fails with its output when it fails. */
  String exec(String... command) throws Exception {
    List<String> full = new ArrayList<>(List.of(prefix()));
    full.addAll(List.of(command));
    return run(full.toArray(String[]::new));
  }

  @Override
  public void close() {
    // Deleting the host's end takes the pair down now; the namespace's own teardown would take
    // it down only when the kernel gets to it, and the next namespace may want the name.
    if (Files.exists(Path.of("/sys/class/net", outsideDevice))) {
      try {
        run("ip", "link", "delete", outsideDevice);
      } catch (Exception e) {
        System.out.println("[faultline-it] could not delete link " + outsideDevice + ": " + e);
      }
    }
    deleteNamespace(name);
  }

  private static void deleteNamespace(String name) {
    try {
      run("ip", "netns", "delete", name);
    } catch (Exception e) {
      System.out.println("[faultline-it] could not delete namespace " + name + ": " + e);
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
}
