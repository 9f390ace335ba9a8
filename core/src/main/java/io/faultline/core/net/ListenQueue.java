package io.faultline.core.net;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A listening socket's accept queue, from its TCP_INFO: for a socket in {@code LISTEN} the kernel
 * reports the connections waiting to be accepted in {@code tcpi_unacked} and the queue's limit (the
 * listener's backlog, capped by {@code net.core.somaxconn}) in {@code tcpi_sacked}. The kernel
 * drops a handshake's last ACK once the queue holds more than the limit, so a full queue is one at
 * or above it.
 *
 * @param depth connections waiting for {@code accept()}
 * @param limit the most the queue takes
 */
public record ListenQueue(long depth, long limit) {

  private static final int STATE_OFFSET = 0;
  private static final int UNACKED_OFFSET = 24;
  private static final int SACKED_OFFSET = 28;
  private static final int LISTEN = 10;

  /** Whether no further connection fits. */
  public boolean full() {
    return limit > 0 && depth >= limit;
  }

  /**
   * The queue of the TCP_INFO in {@code buffer}'s first {@code length} bytes; unavailable when the
   * socket does not listen or the struct is too short.
   */
  public static Outcome<ListenQueue> parse(ByteBuffer buffer, int length) {
    if (length < SACKED_OFFSET + Integer.BYTES) {
      return Outcome.unavailable("the kernel returned " + length + " bytes of tcp_info");
    }
    ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int state = Byte.toUnsignedInt(b.get(STATE_OFFSET));
    if (state != LISTEN) {
      return Outcome.unavailable(
          "the socket is not listening (" + TcpState.fromKernel(state) + ")");
    }
    return Outcome.of(
        new ListenQueue(
            Integer.toUnsignedLong(b.getInt(UNACKED_OFFSET)),
            Integer.toUnsignedLong(b.getInt(SACKED_OFFSET))));
  }
}
