package io.faultline.core.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code sock_diag} dump against real loopback connections of this JVM, IPv4 and (where the
 * host has it) IPv6: for every connection the server accepted the dump holds the facts a {@code
 * getsockopt(TCP_INFO)} of its descriptor returns, the kernel's port filter keeps exactly the
 * listeners asked for, and a refused netlink socket is an unavailable outcome with the reason.
 */
class SockDiagDumpTest {

  private static final int PER_LISTENER = 24;

  private final List<ServerSocketChannel> servers = new ArrayList<>();
  private final List<SocketChannel> ends = new ArrayList<>();
  private TcpInfoReader reader;

  @BeforeEach
  void linuxWithTheDump() {
    reader = TcpInfoReader.create();
    assumeTrue(reader.isSupported(), "TCP_INFO is read only on Linux");
    assumeTrue(reader.dump().isSupported(), "no sock_diag route: " + reader.getClass());
  }

  @AfterEach
  void close() throws IOException {
    for (SocketChannel c : ends) {
      c.close();
    }
    for (ServerSocketChannel s : servers) {
      s.close();
    }
  }

  @Test
  void everyAcceptedConnectionHasTheFactsOfItsOwnTcpInfo() throws Exception {
    int v4 = listenAndConnect(InetAddress.getLoopbackAddress());
    Integer v6 = ipv6Loopback() == null ? null : listenAndConnect(ipv6Loopback());
    Set<Integer> ports = v6 == null ? Set.of(v4) : Set.of(v4, v6);
    Thread.sleep(50); // the last ACKs settle: both reads see idle sockets

    Outcome<List<TcpInfoDump.Socket>> dumped = reader.dump().established(ports);
    assertThat(dumped.reason()).isEmpty();
    List<TcpInfoDump.Socket> sockets = dumped.value().orElseThrow();
    // Each port's connections appear twice in the namespace (both ends are in this JVM); only
    // the accepted ends have the listener's port as their local one.
    assertThat(sockets).hasSize(PER_LISTENER * ports.size());

    Map<Long, Integer> fdByInode = SocketFds.forThisProcess().descriptorsByInode().value().get();
    Set<Integer> wscales = new HashSet<>();
    for (TcpInfoDump.Socket s : sockets) {
      assertThat(s.state()).isEqualTo(TcpState.ESTABLISHED);
      assertThat(ports).contains(s.local().getPort());
      Integer fd = fdByInode.get(s.inode());
      assertThat(fd).as("inode %d is a descriptor of this process", s.inode()).isNotNull();
      TcpInfo bulk = s.info().orElseThrow();
      TcpInfo own = reader.read(fd).value().orElseThrow();
      assertThat(bulk.windowScalingNegotiated()).isEqualTo(own.windowScalingNegotiated()).isTrue();
      assertThat(bulk.options()).isEqualTo(own.options());
      assertThat(bulk.sndWscale()).isEqualTo(own.sndWscale());
      assertThat(bulk.rcvWscale()).isEqualTo(own.rcvWscale());
      assertThat(bulk.rttMicros()).isEqualTo(own.rttMicros()).isPositive();
      assertThat(bulk.sndMss()).isEqualTo(own.sndMss());
      assertThat(bulk.totalRetrans()).isEqualTo(own.totalRetrans());
      assertThat(bulk.rwndLimitedMicros()).isEqualTo(own.rwndLimitedMicros());
      assertThat(bulk.sndWnd()).isEqualTo(own.sndWnd());
      assertThat(bulk.returnedLength()).isEqualTo(own.returnedLength());
      SocketChannel peer = clientAt(s.remote());
      assertThat(peer).as("the client end of %s", s).isNotNull();
      assertThat(s.local()).isEqualTo(peer.getRemoteAddress());
      wscales.add(bulk.sndWscale());
    }
    // Half the clients offered a small receive buffer, so the dump saw two window scales.
    assertThat(wscales).hasSizeGreaterThan(1);
  }

  @Test
  void theKernelFilterKeepsOnlyTheListenersAskedFor() throws Exception {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    int first = listenAndConnect(loopback);
    int second = listenAndConnect(loopback);
    int third = listenAndConnect(loopback);

    assertThat(localPorts(reader.dump().established(Set.of(second))))
        .containsOnly(second)
        .hasSize(PER_LISTENER);
    assertThat(localPorts(reader.dump().established(Set.of(first, third))))
        .containsOnly(first, third)
        .hasSize(2 * PER_LISTENER);
    // More ports than the filter takes: the whole dump, filtered here.
    Set<Integer> many = new HashSet<>(Set.of(first, third));
    for (int p = 1; many.size() <= InetDiag.MAX_FILTERED_PORTS; p++) {
      if (p != second) {
        many.add(p);
      }
    }
    assertThat(localPorts(reader.dump().established(many)))
        .containsOnly(first, third)
        .hasSize(2 * PER_LISTENER);
    assertThat(reader.dump().established(Set.of()).value()).contains(List.of());
  }

  @Test
  void listenersAreDumpedWithTheirInodes() throws Exception {
    int port = listenAndConnect(InetAddress.getLoopbackAddress());
    Outcome<List<TcpInfoDump.Socket>> listening = reader.dump().listening();
    assertThat(listening.reason()).isEmpty();
    Map<Long, Integer> fdByInode = SocketFds.forThisProcess().descriptorsByInode().value().get();
    List<TcpInfoDump.Socket> ours =
        listening.value().orElseThrow().stream()
            .filter(s -> s.local().getPort() == port)
            .collect(Collectors.toList());
    assertThat(ours).hasSize(1);
    assertThat(ours.get(0).state()).isEqualTo(TcpState.LISTEN);
    assertThat(ours.get(0).info()).isEmpty();
    assertThat(fdByInode).containsKey(ours.get(0).inode());
  }

  @Test
  void aRefusedNetlinkSocketIsAReasonNotAnError() {
    TcpInfoDump refused =
        new SockDiagDump(
            () -> {
              throw new IOException("socket(AF_NETLINK, NETLINK_SOCK_DIAG) refused: errno 1");
            });
    assertThat(refused.listening().reason())
        .hasValueSatisfying(r -> assertThat(r).contains("errno 1"));
    assertThat(refused.established(Set.of(9092)).isAvailable()).isFalse();
    assertThat(TcpInfoDump.unavailable("why").established(Set.of(1)).reason()).contains("why");
  }

  /** A listener on {@code address} with {@link #PER_LISTENER} accepted connections; its port. */
  private int listenAndConnect(InetAddress address) throws IOException {
    ServerSocketChannel server =
        ServerSocketChannel.open().bind(new InetSocketAddress(address, 0), PER_LISTENER);
    servers.add(server);
    for (int i = 0; i < PER_LISTENER; i++) {
      SocketChannel client = SocketChannel.open();
      if (i % 2 == 0) {
        // A small buffer at the SYN means a smaller window scale offered: facts that differ.
        client.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
      }
      client.connect(server.getLocalAddress());
      SocketChannel accepted = server.accept();
      ends.add(client);
      ends.add(accepted);
      // One exchange each way so both ends have measured an RTT.
      client.write(ByteBuffer.wrap(new byte[] {1}));
      accepted.read(ByteBuffer.allocate(1));
      accepted.write(ByteBuffer.wrap(new byte[] {2}));
      client.read(ByteBuffer.allocate(1));
    }
    return ((InetSocketAddress) server.getLocalAddress()).getPort();
  }

  private SocketChannel clientAt(InetSocketAddress address) throws IOException {
    for (SocketChannel c : ends) {
      if (address.equals(c.getLocalAddress())) {
        return c;
      }
    }
    return null;
  }

  private static List<Integer> localPorts(Outcome<List<TcpInfoDump.Socket>> dumped) {
    assertThat(dumped.reason()).isEmpty();
    return dumped.value().orElseThrow().stream().map(s -> s.local().getPort()).toList();
  }

  /** {@code ::1} when this host can listen on it, else null. */
  private static InetAddress ipv6Loopback() {
    try (ServerSocketChannel probe = ServerSocketChannel.open()) {
      InetAddress v6 = Inet6Address.getByName("::1");
      probe.bind(new InetSocketAddress(v6, 0));
      return v6;
    } catch (IOException e) {
      return null;
    }
  }
}
