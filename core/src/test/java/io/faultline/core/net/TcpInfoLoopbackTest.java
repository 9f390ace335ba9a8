package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Reads TCP_INFO of a real loopback connection, its fd found by address (no reflection), and checks
 * the numbers against what {@code ss -tin} says about the same socket.
 */
class TcpInfoLoopbackTest {

  private static final Pattern WSCALE = Pattern.compile("\\bwscale:(\\d+),(\\d+)");
  private static final Pattern RTT = Pattern.compile("\\brtt:([0-9.]+)/([0-9.]+)");
  private static final Pattern SND_WND = Pattern.compile("\\bsnd_wnd:(\\d+)");
  private static final Pattern RTO = Pattern.compile("\\brto:(\\d+(?:\\.\\d+)?)");
  private static final Pattern MSS = Pattern.compile("\\bmss:(\\d+)");

  @Test
  void readsALoopbackConnectionAndAgreesWithSs() throws Exception {
    assumeTrue(
        System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux"), "Linux only");
    TcpInfoReader reader = TcpInfoReader.create();
    assertThat(reader.unsupportedReason()).isEmpty();

    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      InetSocketAddress serverAddress = (InetSocketAddress) server.getLocalAddress();
      try (SocketChannel client = SocketChannel.open(serverAddress);
          SocketChannel accepted = server.accept()) {
        // Some traffic both ways so the RTT is measured.
        client.write(ByteBuffer.wrap("ping".getBytes(StandardCharsets.US_ASCII)));
        accepted.read(ByteBuffer.allocate(16));
        accepted.write(ByteBuffer.wrap("pong".getBytes(StandardCharsets.US_ASCII)));
        client.read(ByteBuffer.allocate(16));
        Thread.sleep(50); // let the last ACK settle so ss and we read an idle socket

        InetSocketAddress local = (InetSocketAddress) client.getLocalAddress();
        int fd = fdOf(serverAddress, local);
        TcpInfo info = reader.read(fd).value().orElseThrow();
        String ss = ss(serverAddress, local);
        System.out.printf(
            "TcpInfo fd=%d len=%d state=%s wscale=%d,%d rtt=%dus rttvar=%dus mss=%d cwnd=%d"
                + " snd_wnd=%s rcv_wnd=%s ceiling=%s%nss: %s%n",
            fd,
            info.returnedLength(),
            info.state(),
            info.sndWscale(),
            info.rcvWscale(),
            info.rttMicros(),
            info.rttVarMicros(),
            info.sndMss(),
            info.sndCwnd(),
            info.sndWnd(),
            info.rcvWnd(),
            info.throughputCeilingBytesPerSecond(),
            ss.trim());

        assertThat(info.state()).isEqualTo(TcpState.ESTABLISHED);
        assertThat(info.windowScalingNegotiated()).isTrue();
        assertThat(info.rttMicros()).isPositive();
        assertThat(info.bytesAcked().orElseThrow()).isPositive();

        Matcher wscale = WSCALE.matcher(ss);
        assertThat(wscale.find()).as("ss shows wscale: %s", ss).isTrue();
        assertThat(info.sndWscale()).isEqualTo(Integer.parseInt(wscale.group(1)));
        assertThat(info.rcvWscale()).isEqualTo(Integer.parseInt(wscale.group(2)));

        Matcher rtt = RTT.matcher(ss);
        assertThat(rtt.find()).isTrue();
        // ss prints microseconds / 1000 with three decimals; the socket is idle between reads.
        assertThat((double) info.rttMicros())
            .isCloseTo(
                Double.parseDouble(rtt.group(1)) * 1000, org.assertj.core.data.Offset.offset(1.0));

        Matcher mss = MSS.matcher(ss);
        assertThat(mss.find()).isTrue();
        assertThat(info.sndMss()).isEqualTo(Long.parseLong(mss.group(1)));

        Matcher rto = RTO.matcher(ss);
        assertThat(rto.find()).as("ss shows rto: %s", ss).isTrue();
        assertThat(info.rtoMicros() / 1000.0).isEqualTo(Double.parseDouble(rto.group(1)));
        // Idle and acknowledged: nothing in flight, no retransmission pending.
        assertThat(info.unacked()).isZero();
        assertThat(info.retransmits()).isZero();
        assertThat(info.lastAckRecvMillis()).isLessThan(60_000);
        assertThat(info.deliveryRateAppLimited())
            .as("app-limited as ss says: %s", ss)
            .isEqualTo(ss.contains("app_limited"));

        Matcher sndWnd = SND_WND.matcher(ss);
        if (sndWnd.find()) {
          assertThat(info.sndWnd()).hasValue(Long.parseLong(sndWnd.group(1)));
        }
      }
    }
  }

  /** {@code ss -tin} for exactly this connection; skips the test when ss is not installed. */
  private static String ss(InetSocketAddress remote, InetSocketAddress local) throws Exception {
    Process p;
    try {
      p =
          new ProcessBuilder(
                  "ss",
                  "-tin",
                  "dst",
                  remote.getAddress().getHostAddress() + ":" + remote.getPort(),
                  "and",
                  "sport",
                  "=",
                  ":" + local.getPort())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      assumeTrue(false, "ss (iproute2) is not installed: " + e.getMessage());
      throw e;
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void bytesAckedAloneAgreesWithTheDecodedSampleAndFollowsTheTraffic() throws Exception {
    assumeTrue(
        System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux"), "Linux only");
    TcpInfoReader reader = TcpInfoReader.create();
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      InetSocketAddress serverAddress = (InetSocketAddress) server.getLocalAddress();
      try (SocketChannel client = SocketChannel.open(serverAddress);
          SocketChannel accepted = server.accept()) {
        InetSocketAddress local = (InetSocketAddress) client.getLocalAddress();
        int fd = fdOf(serverAddress, local);
        long before = reader.bytesAcked(fd);
        assertThat(before).as("the SYN").isEqualTo(1);

        client.write(ByteBuffer.wrap(new byte[1000]));
        ByteBuffer in = ByteBuffer.allocate(1000);
        while (in.hasRemaining()) {
          accepted.read(in);
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (reader.bytesAcked(fd) < before + 1000 && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        long acked = reader.bytesAcked(fd);
        assertThat(acked).as("SYN and 1000 bytes").isEqualTo(1001);
        assertThat(reader.read(fd).value().orElseThrow().bytesAcked()).hasValue(acked);
        assertThat(reader.bytesAcked(-1)).as("no descriptor").isEqualTo(-1);
      }
    }
  }

  @Test
  void unacknowledgedBytesAndBytesAckedAddUpToWhatWasWritten() throws Exception {
    assumeTrue(
        System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux"), "Linux only");
    assumeTrue(OutputQueueIoctl.isKnownHere(), "SIOCOUTQ's number is known for this processor");
    UnacknowledgedBytesCheck.check(TcpInfoReader.create());
  }

  /** This process's descriptor of the connection from {@code local} to {@code server}. */
  private static int fdOf(InetSocketAddress server, InetSocketAddress local) {
    return SocketFds.forThisProcess()
        .byAddress(server, local)
        .value()
        .orElseThrow(() -> new AssertionError("fd not found by address"));
  }
}
