package io.faultline.core.net;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What the kernel says about one TCP connection ({@code struct tcp_info}, {@code getsockopt(fd,
 * IPPROTO_TCP, TCP_INFO)}): the facts that explain a slow connection the application cannot see,
 * such as whether window scaling was negotiated (the LINE Kafka and Tencent CKafka incidents), the
 * peer's window and the RTT.
 *
 * <p>The struct grew over the years; a field that lies beyond the length the running kernel
 * returned is <em>absent</em> (an empty {@link OptionalLong}), never zero. Everything up to {@code
 * tcpi_total_retrans} is in every kernel since 2.6 and is therefore a plain value.
 *
 * @param returnedLength how many bytes the kernel filled in
 * @param state the connection's state
 * @param options the negotiated options bits ({@code tcpi_options})
 * @param sndWscale the shift applied to the windows the peer advertises (0 when not negotiated)
 * @param rcvWscale the shift applied to the windows this side advertises
 * @param rttMicros the smoothed round-trip time in microseconds
 * @param rttVarMicros the RTT's mean deviation in microseconds
 * @param sndMss the sender's maximum segment size in bytes
 * @param sndCwnd the congestion window in segments
 * @param totalRetrans segments retransmitted over the connection's life
 * @param bytesAcked bytes the peer acknowledged (kernel 4.1+)
 * @param bytesReceived bytes received (kernel 4.1+)
 * @param notsentBytes bytes queued but not yet sent (4.6+)
 * @param minRttMicros the lowest RTT seen, microseconds (4.6+)
 * @param deliveryRate the most recent delivery rate, bytes per second (4.9+)
 * @param busyTimeMicros time with data in flight, microseconds (4.10+)
 * @param rwndLimitedMicros time limited by the peer's receive window, microseconds (4.10+)
 * @param sndbufLimitedMicros time limited by this side's send buffer, microseconds (4.10+)
 * @param bytesSent bytes sent including retransmissions (4.19+)
 * @param sndWnd the peer's advertised window, already scaled, in bytes (5.4+)
 * @param rcvWnd this side's advertised window, in bytes (6.2+)
 * @param retransmits consecutive retransmission timeouts of the oldest unacknowledged segment
 *     ({@code tcpi_retransmits}; back to 0 once the peer acknowledges it)
 * @param rtoMicros the current retransmission timeout, microseconds
 * @param unacked segments sent and not yet acknowledged
 * @param lastAckRecvMillis milliseconds since the peer's last acknowledgement arrived
 * @param deliveryRateAppLimited whether {@code deliveryRate} was measured while the application,
 *     not the network or a window, limited the sending ({@code tcpi_delivery_rate_app_limited},
 *     4.9+; false before): such a rate says what the path carried, not that anything ran out
 */
public record TcpInfo(
    int returnedLength,
    TcpState state,
    int options,
    int sndWscale,
    int rcvWscale,
    long rttMicros,
    long rttVarMicros,
    long sndMss,
    long sndCwnd,
    long totalRetrans,
    OptionalLong bytesAcked,
    OptionalLong bytesReceived,
    OptionalLong notsentBytes,
    OptionalLong minRttMicros,
    OptionalLong deliveryRate,
    OptionalLong busyTimeMicros,
    OptionalLong rwndLimitedMicros,
    OptionalLong sndbufLimitedMicros,
    OptionalLong bytesSent,
    OptionalLong sndWnd,
    OptionalLong rcvWnd,
    int retransmits,
    long rtoMicros,
    long unacked,
    long lastAckRecvMillis,
    boolean deliveryRateAppLimited) {

  /** {@code TCPI_OPT_TIMESTAMPS}. */
  public static final int OPT_TIMESTAMPS = 1;

  /** {@code TCPI_OPT_SACK}. */
  public static final int OPT_SACK = 2;

  /** {@code TCPI_OPT_WSCALE}. */
  public static final int OPT_WSCALE = 4;

  /**
   * The shortest struct this parser accepts: up to and including {@code tcpi_total_retrans}, which
   * every Linux since 2.6 returns.
   */
  public static final int MIN_LENGTH = 104;

  /** The buffer size to offer the kernel; larger than any {@code struct tcp_info} so far. */
  public static final int BUFFER_SIZE = 512;

  /** Where {@code tcpi_bytes_acked} is in the kernel's {@code struct tcp_info}. */
  public static final int BYTES_ACKED_OFFSET = 120;

  /**
   * Parses the first {@code length} bytes of {@code buffer} (from its position 0, little-endian as
   * on x86-64 and aarch64) as the kernel filled them in.
   *
   * @param buffer the bytes; its own position and order are left alone
   * @param length how many bytes the kernel returned in {@code optlen}
   * @return the parsed value, or the reason the length is too short to be a {@code tcp_info}
   */
  public static Outcome<TcpInfo> parse(ByteBuffer buffer, int length) {
    if (length < MIN_LENGTH) {
      return Outcome.unavailable(
          "the kernel returned " + length + " bytes of tcp_info, fewer than " + MIN_LENGTH);
    }
    if (buffer.capacity() < length) {
      return Outcome.unavailable(
          "buffer of " + buffer.capacity() + " bytes is shorter than the returned " + length);
    }
    ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    Fields f = new Fields(b, length);
    int wscale = Byte.toUnsignedInt(b.get(6));
    return Outcome.of(
        new TcpInfo(
            length,
            TcpState.fromKernel(Byte.toUnsignedInt(b.get(0))),
            Byte.toUnsignedInt(b.get(5)),
            wscale & 0x0f,
            (wscale >>> 4) & 0x0f,
            f.u32(68),
            f.u32(72),
            f.u32(16),
            f.u32(80),
            f.u32(100),
            f.optU64(BYTES_ACKED_OFFSET),
            f.optU64(128),
            f.optU32(144),
            f.optU32(148),
            f.optU64(160),
            f.optU64(168),
            f.optU64(176),
            f.optU64(184),
            f.optU64(200),
            f.optU32(228),
            f.optU32(232),
            Byte.toUnsignedInt(b.get(2)),
            f.u32(8),
            f.u32(24),
            f.u32(56),
            (b.get(7) & 1) != 0));
  }

  /** Whether both sides agreed on window scaling (RFC 7323); without it a window tops at 64 KiB. */
  public boolean windowScalingNegotiated() {
    return (options & OPT_WSCALE) != 0;
  }

  /** Whether TCP timestamps were negotiated. */
  public boolean timestampsNegotiated() {
    return (options & OPT_TIMESTAMPS) != 0;
  }

  /** Whether selective acknowledgements were negotiated. */
  public boolean sackNegotiated() {
    return (options & OPT_SACK) != 0;
  }

  /**
   * The most this connection can carry per second whatever the link: the peer's window divided by
   * the round-trip time. A 64 KiB window over 200 ms caps at about 320 KiB/s, the number the
   * Tencent CKafka incident saw on a 225 Mbps link. Absent when the kernel does not report {@code
   * snd_wnd} (before 5.4) or the RTT is not measured yet.
   */
  public OptionalDouble throughputCeilingBytesPerSecond() {
    if (sndWnd.isEmpty() || rttMicros <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(sndWnd.getAsLong() * 1_000_000.0 / rttMicros);
  }

  /** Reads unsigned fields, absent when they lie beyond the returned length. */
  private static final class Fields {
    private final ByteBuffer b;
    private final int length;

    Fields(ByteBuffer b, int length) {
      this.b = b;
      this.length = length;
    }

    long u32(int offset) {
      return Integer.toUnsignedLong(b.getInt(offset));
    }

    OptionalLong optU32(int offset) {
      return offset + 4 <= length ? OptionalLong.of(u32(offset)) : OptionalLong.empty();
    }

    OptionalLong optU64(int offset) {
      // u64 counters do not reach 2^63 in practice; a negative value would mean a corrupt buffer.
      return offset + 8 <= length ? OptionalLong.of(b.getLong(offset)) : OptionalLong.empty();
    }
  }
}
