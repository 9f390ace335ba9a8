package io.faultline.core.net;

/** The kernel's TCP states, in the order of {@code include/net/tcp_states.h} (1-based). */
public enum TcpState {
  /** Connection established. */
  ESTABLISHED,
  /** SYN sent, waiting for the SYN-ACK. */
  SYN_SENT,
  /** SYN received (a request socket). */
  SYN_RECV,
  /** Local side closed, FIN sent. */
  FIN_WAIT1,
  /** Local FIN acknowledged, waiting for the peer's. */
  FIN_WAIT2,
  /** Both sides closed; waiting out stray segments (this holds an ephemeral port). */
  TIME_WAIT,
  /** Closed. */
  CLOSE,
  /** Peer closed, local side still open. */
  CLOSE_WAIT,
  /** Waiting for the ACK of the local FIN after the peer's FIN. */
  LAST_ACK,
  /** A listening socket. */
  LISTEN,
  /** Both sides sent FIN at once. */
  CLOSING,
  /** A SYN that arrived on a listening socket and is not a full socket yet. */
  NEW_SYN_RECV,
  /** A state number this enum does not know (a newer kernel). */
  UNKNOWN;

  /** The state for the kernel's number ({@code tcpi_state}, or the {@code st} column in hex). */
  public static TcpState fromKernel(int number) {
    TcpState[] states = values();
    if (number >= 1 && number < states.length) {
      return states[number - 1];
    }
    return UNKNOWN;
  }
}
