package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link SocketFds#listeningPorts()} on this process's own real sockets. */
class ListeningPortsTest {

  @Test
  void aListenerOfThisProcessIsFoundAndAConnectionIsNot() throws Exception {
    assumeTrue(
        System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("linux"), "Linux only");
    try (ServerSocketChannel server =
            ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        SocketChannel accepted = server.accept()) {
      int listening = ((InetSocketAddress) server.getLocalAddress()).getPort();
      int connected = ((InetSocketAddress) client.getLocalAddress()).getPort();

      Set<Integer> ports = SocketFds.forThisProcess().listeningPorts().value().orElseThrow();

      assertThat(ports).contains(listening).doesNotContain(connected);
    }
  }
}
