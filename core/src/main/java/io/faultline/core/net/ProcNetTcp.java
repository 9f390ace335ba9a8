package io.faultline.core.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parses the kernel's socket tables {@code /proc/net/tcp} and {@code /proc/net/tcp6}.
 *
 * <p>The kernel prints each address as 32-bit words in <em>host</em> byte order ({@code %08X} of a
 * network-order word), so on a little-endian machine {@code 127.0.0.1} reads {@code 0100007F}; the
 * ports are printed after {@code ntohs} and read as plain hex. IPv4 peers of a dual-stack socket
 * appear in {@code tcp6} as {@code ::ffff:a.b.c.d}, which {@link InetAddress#getByAddress(byte[])}
 * turns back into an IPv4 address, so both tables compare equal to an {@code InetSocketAddress}.
 */
public final class ProcNetTcp {

  /**
   * One row.
   *
   * @param local the local address and port
   * @param remote the remote address and port ({@code 0.0.0.0:0} for a listener)
   * @param state the TCP state
   * @param inode the socket's inode, as in {@code /proc/PID/fd/N -> socket:[inode]}
   */
  public record Entry(
      InetSocketAddress local, InetSocketAddress remote, TcpState state, long inode) {}

  private final ByteOrder hostOrder;

  /** A parser for tables printed by a kernel with the given byte order. */
  public ProcNetTcp(ByteOrder hostOrder) {
    this.hostOrder = hostOrder;
  }

  /** A parser for tables printed by this machine's kernel. */
  public static ProcNetTcp nativeOrder() {
    return new ProcNetTcp(ByteOrder.nativeOrder());
  }

  /** Parses a whole table; the header and malformed rows are skipped. */
  public List<Entry> parse(List<String> lines) {
    List<Entry> entries = new ArrayList<>();
    for (String line : lines) {
      parseLine(line).ifPresent(entries::add);
    }
    return entries;
  }

  /** Parses one row, empty for the header or a row that is not understood. */
  public Optional<Entry> parseLine(String line) {
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...; split by hand, not by a
    // regular expression: a broker's table has tens of thousands of rows per sweep.
    String[] f = fields(line, 10);
    if (f == null || !f[0].endsWith(":")) {
      return Optional.empty();
    }
    try {
      InetSocketAddress local = address(f[1]);
      InetSocketAddress remote = address(f[2]);
      TcpState state = TcpState.fromKernel(Integer.parseInt(f[3], 16));
      long inode = Long.parseLong(f[9]);
      return Optional.of(new Entry(local, remote, state, inode));
    } catch (IllegalArgumentException | UnknownHostException e) {
      return Optional.empty();
    }
  }

  /**
   * A row's state from its {@code st} column, read in place: callers that want a few states skip
   * most rows of a table, and {@link #parseLine} builds two addresses for each. {@link
   * TcpState#UNKNOWN} for the header or a row that is not understood.
   */
  static TcpState stateOf(String line) {
    int i = 0;
    int len = line.length();
    for (int field = 0; field < 3; field++) { // sl, local, rem
      while (i < len && Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      while (i < len && !Character.isWhitespace(line.charAt(i))) {
        i++;
      }
    }
    while (i < len && Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    int state = 0;
    int digits = 0;
    for (; i < len && !Character.isWhitespace(line.charAt(i)); i++) {
      int digit = Character.digit(line.charAt(i), 16);
      if (digit < 0 || ++digits > 2) {
        return TcpState.UNKNOWN;
      }
      state = state * 16 + digit;
    }
    return digits == 0 ? TcpState.UNKNOWN : TcpState.fromKernel(state);
  }

  /** The first {@code n} whitespace-separated fields of {@code line}; null when it has fewer. */
  private static String[] fields(String line, int n) {
    String[] f = new String[n];
    int i = 0;
    int len = line.length();
    for (int k = 0; k < n; k++) {
      while (i < len && Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      if (i == len) {
        return null;
      }
      int start = i;
      while (i < len && !Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      f[k] = line.substring(start, i);
    }
    return f;
  }

  private InetSocketAddress address(String field) throws UnknownHostException {
    int colon = field.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("no port in " + field);
    }
    String hex = field.substring(0, colon);
    int port = Integer.parseInt(field.substring(colon + 1), 16);
    if (hex.length() != 8 && hex.length() != 32) {
      throw new IllegalArgumentException("address of " + hex.length() + " hex digits");
    }
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      int value = (int) Long.parseLong(hex.substring(word * 8, word * 8 + 8), 16);
      if (hostOrder == ByteOrder.LITTLE_ENDIAN) {
        value = Integer.reverseBytes(value);
      }
      bytes[word * 4] = (byte) (value >>> 24);
      bytes[word * 4 + 1] = (byte) (value >>> 16);
      bytes[word * 4 + 2] = (byte) (value >>> 8);
      bytes[word * 4 + 3] = (byte) value;
    }
    return new InetSocketAddress(InetAddress.getByAddress(bytes), port);
  }
}
