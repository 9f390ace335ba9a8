package io.faultline.core.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;

/**
 * The bytes of a netlink {@code sock_diag} conversation for TCP ({@code linux/inet_diag.h}): the
 * {@code SOCK_DIAG_BY_FAMILY} dump request with its optional port filter, and the decoding of the
 * {@code inet_diag_msg} answers. No I/O here; {@link SockDiagDump} sends and receives.
 */
final class InetDiag {

  static final int AF_INET = 2;
  static final int AF_INET6 = 10;

  static final int NLMSG_HDRLEN = 16;
  static final int NLMSG_ERROR = 2;
  static final int NLMSG_DONE = 3;
  static final int SOCK_DIAG_BY_FAMILY = 20;

  private static final int NLM_F_REQUEST = 0x1;
  private static final int NLM_F_DUMP = 0x300;
  private static final int IPPROTO_TCP = 6;

  /** {@code sizeof(struct inet_diag_req_v2)}. */
  private static final int REQ_LENGTH = 56;

  /** {@code sizeof(struct inet_diag_msg)}. */
  static final int MSG_LENGTH = 72;

  /** {@code INET_DIAG_REQ_BYTECODE}, the request attribute carrying the filter. */
  private static final int REQ_BYTECODE = 1;

  /** {@code INET_DIAG_INFO}: the answer attribute holding {@code struct tcp_info}. */
  private static final int INFO = 2;

  private static final int BC_JMP = 1;
  private static final int BC_S_GE = 2;
  private static final int BC_S_LE = 3;

  /**
   * Ports beyond which the filter is left out (the kernel then returns every socket in the states
   * asked and the caller filters): each port costs 20 bytes of bytecode, run per socket.
   */
  static final int MAX_FILTERED_PORTS = 64;

  private InetDiag() {}

  /**
   * A dump request.
   *
   * @param family {@link #AF_INET} or {@link #AF_INET6}
   * @param states bit {@code 1 << state} for each {@link TcpState} wanted
   * @param withInfo whether to ask for {@code INET_DIAG_INFO} (the {@code tcp_info})
   * @param localPorts when not empty, only sockets whose local port is one of these
   * @param seq the sequence number the answers will carry
   */
  static ByteBuffer request(
      int family, int states, boolean withInfo, List<Integer> localPorts, int seq) {
    byte[] bytecode = localPorts.isEmpty() ? new byte[0] : portFilter(localPorts);
    int attribute = bytecode.length == 0 ? 0 : 4 + bytecode.length;
    int length = NLMSG_HDRLEN + REQ_LENGTH + attribute;
    ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
    b.putInt(length).putShort((short) SOCK_DIAG_BY_FAMILY);
    b.putShort((short) (NLM_F_REQUEST | NLM_F_DUMP)).putInt(seq).putInt(0);
    b.put((byte) family).put((byte) IPPROTO_TCP);
    b.put((byte) (withInfo ? 1 << (INFO - 1) : 0)).put((byte) 0);
    b.putInt(states);
    b.position(b.position() + 48); // inet_diag_sockid: all zero, a dump ignores it
    if (attribute > 0) {
      b.putShort((short) attribute).putShort((short) REQ_BYTECODE).put(bytecode);
    }
    return b.flip();
  }

  /**
   * {@code sport >= p && sport <= p} for each port, or-ed: each block's failure jumps to the next
   * block (past the last one: reject), each block's success to a jump to the end (accept). The
   * kernel's audit walks the "yes" offsets, so every block lies on that chain. {@code S_GE} and
   * {@code S_LE} are in every kernel with {@code inet_diag}, unlike {@code S_EQ} (4.16).
   */
  static byte[] portFilter(List<Integer> ports) {
    int blocks = ports.size();
    int length = blocks * 20 - 4; // 16 bytes of comparisons per port, a 4-byte jump between two
    ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
    for (int i = 0; i < blocks; i++) {
      int start = b.position();
      int port = ports.get(i);
      int nextBlock = 20; // from this block's start; past the end when it is the last
      op(b, BC_S_GE, 8, nextBlock);
      op(b, 0, 0, port);
      op(b, BC_S_LE, 8, nextBlock - 8);
      op(b, 0, 0, port);
      if (i < blocks - 1) {
        op(b, BC_JMP, 4, length - (start + 16));
      }
    }
    return b.array();
  }

  private static void op(ByteBuffer b, int code, int yes, int no) {
    b.put((byte) code).put((byte) yes).putShort((short) no);
  }

  /**
   * Decodes the {@code inet_diag_msg} at {@code offset} whose netlink payload ends at {@code end}.
   *
   * @return the socket, or empty when the message is too short to be one
   */
  static Optional<TcpInfoDump.Socket> socket(ByteBuffer b, int offset, int end) {
    if (end - offset < MSG_LENGTH) {
      return Optional.empty();
    }
    int family = Byte.toUnsignedInt(b.get(offset));
    TcpState state = TcpState.fromKernel(Byte.toUnsignedInt(b.get(offset + 1)));
    int localPort = bigEndian16(b, offset + 4);
    int remotePort = bigEndian16(b, offset + 6);
    int addressLength = family == AF_INET ? 4 : 16;
    InetSocketAddress local;
    InetSocketAddress remote;
    try {
      local = new InetSocketAddress(address(b, offset + 8, addressLength), localPort);
      remote = new InetSocketAddress(address(b, offset + 24, addressLength), remotePort);
    } catch (UnknownHostException e) {
      return Optional.empty(); // cannot happen with 4 or 16 bytes
    }
    long inode = Integer.toUnsignedLong(b.getInt(offset + 68));
    Optional<TcpInfo> info = Optional.empty();
    int at = offset + MSG_LENGTH;
    while (at + 4 <= end) {
      int length = Short.toUnsignedInt(b.getShort(at));
      int type = Short.toUnsignedInt(b.getShort(at + 2));
      if (length < 4 || at + length > end) {
        break;
      }
      if (type == INFO) {
        Outcome<TcpInfo> parsed = TcpInfo.parse(b.slice(at + 4, length - 4), length - 4);
        info = parsed.value();
      }
      at += align(length);
    }
    return Optional.of(new TcpInfoDump.Socket(inode, state, local, remote, info));
  }

  private static InetAddress address(ByteBuffer b, int offset, int length)
      throws UnknownHostException {
    byte[] raw = new byte[length];
    b.get(offset, raw);
    // An IPv4-mapped IPv6 address comes back as the Inet4Address, as in /proc/net/tcp6.
    return InetAddress.getByAddress(raw);
  }

  /** Ports are in network order; everything else in a netlink message in the host's. */
  private static int bigEndian16(ByteBuffer b, int at) {
    return (Byte.toUnsignedInt(b.get(at)) << 8) | Byte.toUnsignedInt(b.get(at + 1));
  }

  /** Netlink's 4-byte alignment of messages and attributes. */
  static int align(int length) {
    return (length + 3) & ~3;
  }
}
