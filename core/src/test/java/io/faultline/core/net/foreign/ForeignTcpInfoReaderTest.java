package io.faultline.core.net.foreign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.net.ListenQueue;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.OutputQueueIoctl;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoDump;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.core.net.TcpState;
import io.faultline.core.net.UnacknowledgedBytesCheck;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Foreign Function &amp; Memory reader on a real loopback connection, beside the JNA reader
 * reading the same socket (JDK 22 or later; skipped on older JDKs, where it is never chosen).
 */
class ForeignTcpInfoReaderTest {

  private TcpInfoReader foreign;

  @BeforeEach
  void bind() throws Exception {
    assumeTrue(Runtime.version().feature() >= 22, "the FFM API is final from JDK 22");
    assumeTrue(
        System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux"), "Linux only");
    foreign = ForeignTcpInfoReader.of(GetsockoptBinder.bind()).value().orElseThrow();
  }

  @Test
  void readsWhatTheJnaReaderReadsOnTheSameSocket() throws Exception {
    try (ServerSocketChannel server =
            ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        SocketChannel accepted = server.accept()) {
      client.write(ByteBuffer.wrap(new byte[3000]));
      ByteBuffer in = ByteBuffer.allocate(4096);
      while (in.position() < 3000) {
        accepted.read(in);
      }
      Thread.sleep(50); // the last ACK settles, so both readers see an idle socket
      int fd = fdOf(client);

      TcpInfo viaForeign = foreign.read(fd).value().orElseThrow();
      Outcome<TcpInfo> viaJna = jnaReader().read(fd);

      assertThat(viaForeign.state()).isEqualTo(TcpState.ESTABLISHED);
      assertThat(viaForeign.windowScalingNegotiated()).isTrue();
      assertThat(viaForeign.bytesAcked().orElseThrow()).isGreaterThanOrEqualTo(3000);
      assertThat(foreign.bytesAcked(fd)).isEqualTo(viaForeign.bytesAcked().orElseThrow());
      if (viaJna.isAvailable()) {
        TcpInfo jna = viaJna.value().orElseThrow();
        assertThat(viaForeign.returnedLength()).isEqualTo(jna.returnedLength());
        assertThat(viaForeign.sndWscale()).isEqualTo(jna.sndWscale());
        assertThat(viaForeign.rcvWscale()).isEqualTo(jna.rcvWscale());
        assertThat(viaForeign.sndMss()).isEqualTo(jna.sndMss());
        assertThat(viaForeign.bytesAcked()).isEqualTo(jna.bytesAcked());
      }
    }
  }

  @Test
  void aListeningSocketsAcceptQueueIsRead() throws Exception {
    try (ServerSocketChannel server =
            ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        SocketChannel waiting = SocketChannel.open(server.getLocalAddress())) {
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      int fd = SocketFds.forThisProcess().listeningSockets().value().orElseThrow().get(port);

      assertThat(foreign.listenQueue(fd).value()).contains(new ListenQueue(1, 4));
      assertThat(foreign.listenQueue(fdOf(waiting)).reason().orElseThrow())
          .contains("not listening");
    }
  }

  @Test
  void itsSockDiagDumpHoldsWhatGetsockoptReadsPerSocket() throws Exception {
    assertThat(foreign.dump().isSupported()).as("the netlink calls are linked").isTrue();
    List<SocketChannel> ends = new ArrayList<>();
    try (ServerSocketChannel server =
        ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16)) {
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      for (int i = 0; i < 10; i++) {
        SocketChannel client = SocketChannel.open();
        if (i % 2 == 0) {
          client.setOption(StandardSocketOptions.SO_RCVBUF, 4096); // another window scale
        }
        client.connect(server.getLocalAddress());
        ends.add(client);
        ends.add(server.accept());
      }
      Thread.sleep(50); // the last ACKs settle

      Outcome<List<TcpInfoDump.Socket>> dumped = foreign.dump().established(Set.of(port));

      assertThat(dumped.reason()).isEmpty();
      assertThat(dumped.value().orElseThrow()).hasSize(10);
      Map<Long, Integer> fds = SocketFds.forThisProcess().descriptorsByInode().value().get();
      for (TcpInfoDump.Socket s : dumped.value().orElseThrow()) {
        TcpInfo bulk = s.info().orElseThrow();
        TcpInfo own = foreign.read(fds.get(s.inode())).value().orElseThrow();
        assertThat(bulk.options()).isEqualTo(own.options());
        assertThat(bulk.sndWscale()).isEqualTo(own.sndWscale());
        assertThat(bulk.rcvWscale()).isEqualTo(own.rcvWscale());
        assertThat(bulk.rttMicros()).isEqualTo(own.rttMicros());
      }
      assertThat(foreign.dump().listening().value().orElseThrow())
          .anyMatch(l -> l.local().getPort() == port && fds.containsKey(l.inode()));
    } finally {
      for (SocketChannel c : ends) {
        c.close();
      }
    }
  }

  @Test
  void unacknowledgedBytesAndBytesAckedAddUpToWhatWasWritten() throws Exception {
    assumeTrue(OutputQueueIoctl.isKnownHere(), "SIOCOUTQ's number is known for this processor");
    UnacknowledgedBytesCheck.check(foreign);
  }

  @Test
  void aClosedDescriptorIsReportedWithItsErrno() throws Exception {
    // Far above any descriptor this JVM opens (and above the usual 1,048,576 limit): never open.
    int unused = (1 << 20) + 7;

    Outcome<TcpInfo> closed = foreign.read(unused);

    assertThat(closed.isAvailable()).isFalse();
    assertThat(closed.reason().orElseThrow()).contains("EBADF");
    assertThat(foreign.bytesAcked(unused)).isEqualTo(-1);
    assertThat(foreign.read(-1).reason().orElseThrow()).contains("no file descriptor");
  }

  /** The descriptor found by address, without reflecting on the channel. */
  private static int fdOf(SocketChannel client) throws java.io.IOException {
    return SocketFds.forThisProcess()
        .byAddress(
            (InetSocketAddress) client.getRemoteAddress(),
            (InetSocketAddress) client.getLocalAddress())
        .value()
        .orElseThrow(() -> new AssertionError("fd not found by address"));
  }

  private static TcpInfoReader jnaReader() {
    return TcpInfoReader.create();
  }
}
