package io.faultline.kafka.connection;

import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpState;
import java.time.Duration;
import java.util.Optional;

/**
 * Tells from one TCP_INFO sample that the path to the broker drops packets: data is in flight, no
 * acknowledgement has arrived for {@link #SILENCE} and the kernel has retransmitted the oldest
 * segment at least {@value #RETRANSMITS} times on its timer. A slow or paused broker does not look
 * like this (its kernel still acknowledges what arrives, and a full receive buffer shows as a zero
 * window, with nothing unacknowledged), nor does loss on a working path (an acknowledgement comes
 * within a few RTOs and resets the count). Stateless.
 */
final class LinkStall {

  /** How long without any acknowledgement, data in flight, before it is a stall. */
  static final Duration SILENCE = Duration.ofSeconds(5);

  /** Consecutive retransmission timeouts of the oldest segment a stall needs. */
  static final int RETRANSMITS = 3;

  /**
   * What a stall looks like, for the finding's evidence.
   *
   * @param silentMillis milliseconds since the broker's last acknowledgement
   * @param unacked segments in flight
   * @param retransmits consecutive retransmission timeouts of the oldest one
   * @param rtoMillis the retransmission timeout now
   */
  record Stall(long silentMillis, long unacked, int retransmits, long rtoMillis) {}

  private LinkStall() {}

  /** The stall {@code info} shows, or empty. */
  static Optional<Stall> of(TcpInfo info) {
    if (info.state() != TcpState.ESTABLISHED
        || info.unacked() == 0
        || info.retransmits() < RETRANSMITS
        || info.lastAckRecvMillis() < SILENCE.toMillis()) {
      return Optional.empty();
    }
    return Optional.of(
        new Stall(
            info.lastAckRecvMillis(), info.unacked(), info.retransmits(), info.rtoMicros() / 1000));
  }
}
