package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.finding.Finding;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Tencent CKafka incident's handshake in a network namespace: the server answers every SYN with
 * a cookie ({@code tcp_syncookies=2}) and an nftables rule strips the timestamp option from
 * incoming SYNs to one port, as the NAT gateway did. The client end lives in the test JVM's
 * namespace, so the reader and the fd lookup are the real ones. Needs root, {@code ip}, {@code nft}
 * and {@code python3}; skipped otherwise. Everything it creates is removed in {@code finally}.
 */
@Tag("root-lab")
class SynCookieNamespaceLabTest {

  private static final int STRIPPED_PORT = 9001;
  private static final int CONTROL_PORT = 9002;

  private static final String SERVER =
      String.join(
          "\n",
          "import os, socket, threading, time",
          "held = []",
          "def serve(port):",
          "    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
          "    s.bind(('0.0.0.0', port)); s.listen(64)",
          "    while True:",
          "        c, _ = s.accept(); held.append(c)",
          "for p in (" + STRIPPED_PORT + ", " + CONTROL_PORT + "):",
          "    threading.Thread(target=serve, args=(p,), daemon=True).start()",
          "time.sleep(0.2)",
          "print('ready', os.getpid(), flush=True)",
          "time.sleep(60)");

  @Test
  void cookiesWithoutTimestampsLoseWindowScalingAndTheDoctorSeesTheCookies() throws Exception {
    long started = System.nanoTime();
    assumeTrue(isRoot(), "needs root to create network namespaces");
    assumeTrue(works("ip", "-V"), "iproute2 (ip) is not installed");
    assumeTrue(works("nft", "--version"), "nftables (nft) is not installed");
    assumeTrue(works("python3", "--version"), "python3 is not installed");
    TcpInfoReader reader = TcpInfoReader.create();
    assumeTrue(reader.isSupported(), () -> "TCP_INFO unsupported: " + reader.unsupportedReason());

    String tag = Integer.toHexString(ThreadLocalRandom.current().nextInt(0x100000, 0xFFFFFF));
    String ns = "fl-srv-" + tag;
    String hostVeth = "flh" + tag;
    String srvVeth = "fls" + tag;
    int subnet = ThreadLocalRandom.current().nextInt(1, 250);
    String hostIp = "10.251." + subnet + ".1";
    String srvIp = "10.251." + subnet + ".2";
    Process server = null;
    try {
      sh("ip", "netns", "add", ns);
      sh("ip", "link", "add", hostVeth, "type", "veth", "peer", "name", srvVeth);
      sh("ip", "link", "set", srvVeth, "netns", ns);
      sh("ip", "addr", "add", hostIp + "/30", "dev", hostVeth);
      sh("ip", "link", "set", hostVeth, "up");
      inNs(ns, "ip", "addr", "add", srvIp + "/30", "dev", srvVeth);
      inNs(ns, "ip", "link", "set", srvVeth, "up");
      inNs(ns, "ip", "link", "set", "lo", "up");
      inNs(ns, "sysctl", "-q", "-w", "net.ipv4.tcp_syncookies=2");
      inNs(ns, "nft", "add", "table", "inet", "t");
      inNs(
          ns,
          "nft",
          "add",
          "chain",
          "inet",
          "t",
          "pre",
          "{ type filter hook prerouting priority -300; }");
      inNs(
          ns,
          "nft",
          "add",
          "rule",
          "inet",
          "t",
          "pre",
          "tcp dport " + STRIPPED_PORT + " tcp flags syn reset tcp option timestamp");

      server = new ProcessBuilder("ip", "netns", "exec", ns, "python3", "-u", "-c", SERVER).start();
      BufferedReader serverOut =
          new BufferedReader(
              new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      String ready = serverOut.readLine();
      assertThat(ready).as("server start").startsWith("ready ");
      long serverPid = Long.parseLong(ready.substring("ready ".length()).trim());

      // The doctor reads the server namespace's counters through /proc/PID/net.
      ProcFs serverNs = ProcFs.system().withNetworkNamespaceOf(serverPid);
      HostSample before = HostSample.take(serverNs, Instant.now());

      InetSocketAddress stripped = new InetSocketAddress(srvIp, STRIPPED_PORT);
      InetSocketAddress control = new InetSocketAddress(srvIp, CONTROL_PORT);
      try (SocketChannel a = SocketChannel.open(stripped);
          SocketChannel b = SocketChannel.open(control)) {
        Thread.sleep(100);
        TcpInfo strippedInfo = read(reader, stripped, a);
        TcpInfo controlInfo = read(reader, control, b);
        HostSample after = HostSample.take(serverNs, Instant.now());

        System.out.printf(
            "lab: stripped SYN timestamps -> wscaleNegotiated=%s wscale=%d,%d snd_wnd=%s"
                + " rtt=%dus ts=%s%n",
            strippedInfo.windowScalingNegotiated(),
            strippedInfo.sndWscale(),
            strippedInfo.rcvWscale(),
            strippedInfo.sndWnd(),
            strippedInfo.rttMicros(),
            strippedInfo.timestampsNegotiated());
        System.out.printf(
            "lab: control                -> wscaleNegotiated=%s wscale=%d,%d snd_wnd=%s"
                + " rtt=%dus ts=%s%n",
            controlInfo.windowScalingNegotiated(),
            controlInfo.sndWscale(),
            controlInfo.rcvWscale(),
            controlInfo.sndWnd(),
            controlInfo.rttMicros(),
            controlInfo.timestampsNegotiated());

        assertThat(strippedInfo.windowScalingNegotiated()).isFalse();
        assertThat(strippedInfo.timestampsNegotiated()).isFalse();
        assertThat(strippedInfo.sndWnd().orElseThrow()).isLessThanOrEqualTo(65_535);
        assertThat(controlInfo.windowScalingNegotiated()).isTrue();
        assertThat(controlInfo.sndWscale()).isPositive();

        DoctorReport report =
            new HostDoctor(serverNs, DoctorOptions.defaults()).examine(before, Optional.of(after));
        CheckResult counters = report.result(new ListenCountersCheck().name());
        System.out.println("lab: doctor in the server namespace: " + counters.evidence());
        Finding cookies =
            counters.findings().stream()
                .filter(f -> f.type() == HostFindingTypes.SYN_COOKIES_SENT)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no SYN_COOKIES_SENT: " + counters));
        assertThat((Long) cookies.evidence().get("SyncookiesSent_delta")).isGreaterThanOrEqualTo(2);
      }
    } finally {
      if (server != null) {
        server.destroyForcibly();
        server.waitFor(5, TimeUnit.SECONDS);
      }
      quietly("ip", "netns", "del", ns); // takes the server's veth end, and so the pair, with it
      quietly("ip", "link", "del", hostVeth);
      System.out.printf("lab: took %d ms%n", (System.nanoTime() - started) / 1_000_000);
    }
    assertThat(quietly("ip", "netns", "list")).doesNotContain(ns);
  }

  private static TcpInfo read(TcpInfoReader reader, InetSocketAddress remote, SocketChannel ch)
      throws IOException {
    int fd =
        SocketFds.forThisProcess()
            .byAddress(remote, (InetSocketAddress) ch.getLocalAddress())
            .value()
            .orElseThrow(() -> new AssertionError("no fd for " + remote));
    return reader.read(fd).value().orElseThrow(() -> new AssertionError("no TCP_INFO " + fd));
  }

  private static boolean isRoot() throws IOException {
    for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
      if (line.startsWith("Uid:")) {
        return line.split("\\s+")[1].equals("0");
      }
    }
    return false;
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

  private static void inNs(String ns, String... command) throws Exception {
    List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", ns));
    full.addAll(List.of(command));
    sh(full.toArray(new String[0]));
  }

  private static void sh(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
  }

  private static String quietly(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(10, TimeUnit.SECONDS);
      return out;
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
