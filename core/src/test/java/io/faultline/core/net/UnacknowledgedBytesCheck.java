package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Checks a reader's {@link TcpInfoReader#unacknowledgedBytes} on a real loopback connection: a
 * client writes until its peer, which reads nothing yet, has a full window, so bytes wait
 * unacknowledged in the client's send queue; TCP_INFO's {@code bytes_acked} and {@code SIOCOUTQ}
 * must then add up to every byte written plus the SYN. Once the peer has read everything, nothing
 * is unacknowledged. Shared by the JNA and the FFM readers' tests.
 */
public final class UnacknowledgedBytesCheck {

  private UnacknowledgedBytesCheck() {}

  /** Runs the check on {@code reader}, which must read SIOCOUTQ here. */
  public static void check(TcpInfoReader reader) throws Exception {
    assertThat(reader.readsUnacknowledgedBytes()).as("SIOCOUTQ read here").isTrue();
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      InetSocketAddress serverAddress = (InetSocketAddress) server.getLocalAddress();
      try (SocketChannel client = SocketChannel.open(serverAddress);
          SocketChannel accepted = server.accept()) {
        int fd =
            SocketFds.forThisProcess()
                .byAddress(serverAddress, (InetSocketAddress) client.getLocalAddress())
                .value()
                .orElseThrow(() -> new AssertionError("fd not found by address"));
        assertThat(reader.unacknowledgedBytes(fd)).as("nothing written yet").isZero();

        client.configureBlocking(false);
        ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        long written = 0;
        for (int stalls = 0; stalls < 5; ) {
          chunk.clear();
          int n = client.write(chunk);
          if (n == 0) {
            stalls++;
            Thread.sleep(20);
          } else {
            written += n;
            stalls = 0;
          }
        }
        Thread.sleep(100); // the last ACK of what the peer's buffer took settles
        long unacknowledged = reader.unacknowledgedBytes(fd);
        long acked = reader.bytesAcked(fd);
        assertThat(unacknowledged).as("bytes held back by the full window").isPositive();
        assertThat(acked + unacknowledged)
            .as("acknowledged + not yet, SYN included")
            .isEqualTo(written + 1);

        ByteBuffer in = ByteBuffer.allocate(256 * 1024);
        long read = 0;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (read < written && System.nanoTime() < deadline) {
          in.clear();
          read += accepted.read(in);
        }
        while (reader.unacknowledgedBytes(fd) > 0 && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        assertThat(reader.unacknowledgedBytes(fd)).as("all read and acknowledged").isZero();
        assertThat(reader.bytesAcked(fd)).isEqualTo(written + 1);
      }
    }
    assertThat(reader.unacknowledgedBytes(-1)).as("no descriptor").isEqualTo(-1);
    assertThat(reader.unacknowledgedBytes((1 << 20) + 7)).as("a closed descriptor").isEqualTo(-1);
  }
}
