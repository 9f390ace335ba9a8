package io.faultline.core.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link TcpInfoDump} over netlink {@code sock_diag}: per dump one socket, one {@code
 * SOCK_DIAG_BY_FAMILY} request for IPv4 and one for IPv6, the multipart answers read until {@code
 * NLMSG_DONE}. The socket is opened per dump so nothing is left open between sweeps.
 */
final class SockDiagDump implements TcpInfoDump {

  private static final int ENOENT = 2;
  private static final int EAFNOSUPPORT = 97;

  private static final int ESTABLISHED = 1 << 1;
  private static final int LISTEN = 1 << 10;

  private final NetlinkTransport transport;
  private final AtomicInteger sequence = new AtomicInteger();

  SockDiagDump(NetlinkTransport transport) {
    this.transport = Objects.requireNonNull(transport, "transport");
  }

  @Override
  public boolean isSupported() {
    return true;
  }

  @Override
  public Outcome<List<Socket>> listening() {
    return dump(LISTEN, false, List.of());
  }

  @Override
  public Outcome<List<Socket>> established(Set<Integer> localPorts) {
    if (localPorts.isEmpty()) {
      return Outcome.of(List.of());
    }
    List<Integer> ports = new ArrayList<>(localPorts);
    ports.sort(null);
    List<Integer> filter = ports.size() <= InetDiag.MAX_FILTERED_PORTS ? ports : List.of();
    Outcome<List<Socket>> all = dump(ESTABLISHED, true, filter);
    if (!all.isAvailable() || !filter.isEmpty()) {
      return all;
    }
    List<Socket> kept = new ArrayList<>();
    for (Socket s : all.value().orElseThrow()) {
      if (localPorts.contains(s.local().getPort())) {
        kept.add(s);
      }
    }
    return Outcome.of(kept);
  }

  private Outcome<List<Socket>> dump(int states, boolean withInfo, List<Integer> ports) {
    List<Socket> sockets = new ArrayList<>();
    try (NetlinkTransport.Channel channel = transport.open()) {
      for (int family : new int[] {InetDiag.AF_INET, InetDiag.AF_INET6}) {
        int seq = sequence.incrementAndGet();
        channel.send(InetDiag.request(family, states, withInfo, ports, seq));
        int errno = receiveAll(channel, seq, sockets);
        // A kernel without IPv6 (or without its diag module) answers the second request so.
        boolean noIpv6 = errno == ENOENT || errno == EAFNOSUPPORT;
        if (errno != 0 && !(family == InetDiag.AF_INET6 && noIpv6)) {
          return Outcome.unavailable(
              "sock_diag dump of "
                  + (family == InetDiag.AF_INET ? "IPv4" : "IPv6")
                  + " failed: errno "
                  + errno);
        }
      }
    } catch (IOException | RuntimeException e) {
      return Outcome.unavailable("sock_diag dump failed: " + e.getMessage());
    }
    return Outcome.of(sockets);
  }

  /**
   * Reads the answers to request {@code seq} into {@code into}.
   *
   * @return 0 when the dump completed, else the errno the kernel answered
   */
  private static int receiveAll(NetlinkTransport.Channel channel, int seq, List<Socket> into)
      throws IOException {
    while (true) {
      ByteBuffer b = channel.receive();
      int at = 0;
      int end = b.limit();
      while (at + InetDiag.NLMSG_HDRLEN <= end) {
        int length = b.getInt(at);
        int type = Short.toUnsignedInt(b.getShort(at + 4));
        int messageSeq = b.getInt(at + 8);
        if (length < InetDiag.NLMSG_HDRLEN || at + length > end) {
          throw new IOException("truncated netlink message (" + length + " bytes at " + at + ")");
        }
        int payload = at + InetDiag.NLMSG_HDRLEN;
        if (messageSeq == seq) {
          switch (type) {
            case InetDiag.NLMSG_DONE:
              // The payload, when there, is the dump's own return value.
              return length >= InetDiag.NLMSG_HDRLEN + 4 ? Math.max(0, -b.getInt(payload)) : 0;
            case InetDiag.NLMSG_ERROR:
              int error = length >= InetDiag.NLMSG_HDRLEN + 4 ? -b.getInt(payload) : 0;
              if (error != 0) {
                return error;
              }
              break; // an acknowledgement
            case InetDiag.SOCK_DIAG_BY_FAMILY:
              Optional<Socket> socket = InetDiag.socket(b, payload, at + length);
              socket.ifPresent(into::add);
              break;
            default:
              break;
          }
        }
        at += InetDiag.align(length);
      }
    }
  }
}
