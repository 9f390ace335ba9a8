package io.faultline.core.net;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads many TCP sockets' facts in one pass instead of one {@code getsockopt(TCP_INFO)} each: on
 * Linux a netlink {@code sock_diag} ({@code inet_diag}) dump, as {@code ss} does. Obtain one from
 * {@link TcpInfoReader#dump()}.
 *
 * <p>A dump covers the whole network namespace, every process's sockets: a caller keeps its own by
 * {@link Socket#inode()} (this process's are the {@code socket:[inode]} links of {@code
 * /proc/self/fd}, see {@link SocketFds#descriptorsByInode()}). Never throws: where netlink is not
 * permitted (a seccomp profile, a hardened container) every call comes back unavailable with the
 * reason, and the caller reads socket by socket instead.
 */
public interface TcpInfoDump {

  /**
   * One socket of a dump.
   *
   * @param inode the socket's inode, as in {@code /proc/self/fd}'s {@code socket:[inode]}
   * @param state its state
   * @param local this side's address; a connection accepted by a listener has the listener's port
   * @param remote the peer's address (the wildcard for a listener)
   * @param info its {@code tcp_info}, decoded as {@link TcpInfoReader#read} decodes it; empty when
   *     not asked for
   */
  record Socket(
      long inode,
      TcpState state,
      InetSocketAddress local,
      InetSocketAddress remote,
      Optional<TcpInfo> info) {}

  /** Whether this dump can be asked at all; false where it can only say why not. */
  boolean isSupported();

  /** The namespace's listening TCP sockets, IPv4 and IPv6, without their {@code tcp_info}. */
  Outcome<List<Socket>> listening();

  /**
   * The namespace's established TCP connections whose local port is one of {@code localPorts} (the
   * kernel filters, so other connections cost it a comparison, not a copy), each with its {@code
   * tcp_info}.
   */
  Outcome<List<Socket>> established(Set<Integer> localPorts);

  /**
   * The {@code sock_diag} dump over {@code transport}: the requests built and the answers decoded
   * in Java, whichever native route carries them.
   */
  static TcpInfoDump overNetlink(NetlinkTransport transport) {
    return new SockDiagDump(transport);
  }

  /** A dump that cannot be read here, for {@code reason}. */
  static TcpInfoDump unavailable(String reason) {
    Objects.requireNonNull(reason, "reason");
    return new TcpInfoDump() {
      @Override
      public boolean isSupported() {
        return false;
      }

      @Override
      public Outcome<List<Socket>> listening() {
        return Outcome.unavailable(reason);
      }

      @Override
      public Outcome<List<Socket>> established(Set<Integer> localPorts) {
        return Outcome.unavailable(reason);
      }
    };
  }
}
