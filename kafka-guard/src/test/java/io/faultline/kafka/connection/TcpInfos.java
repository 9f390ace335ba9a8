package io.faultline.kafka.connection;

import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpState;
import java.util.OptionalLong;

/** Builds {@link TcpInfo} values for unit tests, as a 6.2+ kernel would report them. */
final class TcpInfos {

  int options = TcpInfo.OPT_WSCALE | TcpInfo.OPT_TIMESTAMPS | TcpInfo.OPT_SACK;
  int sndWscale = 7;
  int rcvWscale = 7;
  long rttMicros = 1_000;
  long mss = 1_448;
  long cwnd = 10;
  long retrans = 0;
  long notsent = 0;
  long deliveryRate = 0;
  long busy = 0;
  long rwndLimited = 0;
  long sndbufLimited = 0;
  long sndWnd = 3_000_000;
  long rcvWnd = 65_535;
  TcpState state = TcpState.ESTABLISHED;
  int retransmits = 0;
  long rtoMicros = 201_000;
  long unacked = 0;
  long lastAckRecvMillis = 4;
  boolean appLimited = false;

  static TcpInfos healthy() {
    return new TcpInfos();
  }

  /**
   * The Tencent CKafka incident: a SYN-cookie handshake without timestamps, 200 ms across the
   * ocean.
   */
  static TcpInfos seed002() {
    TcpInfos t = new TcpInfos();
    t.options = TcpInfo.OPT_SACK;
    t.sndWscale = 0;
    t.rcvWscale = 0;
    t.rttMicros = 200_000;
    t.sndWnd = 65_535;
    t.deliveryRate = 325_000;
    t.busy = 1_000_000;
    t.rwndLimited = 900_000;
    return t;
  }

  /**
   * A path that drops packets: nothing acknowledged for 7 s while 9 segments are in flight, the
   * oldest sent 5 times.
   */
  static TcpInfos stalled() {
    TcpInfos t = new TcpInfos();
    t.unacked = 9;
    t.retransmits = 5;
    t.rtoMicros = 6_400_000;
    t.lastAckRecvMillis = 7_000;
    return t;
  }

  /** A connect still waiting for the broker's SYN-ACK: no options negotiated yet. */
  static TcpInfos connecting() {
    TcpInfos t = new TcpInfos();
    t.state = TcpState.SYN_SENT;
    t.options = 0;
    t.sndWscale = 0;
    t.rcvWscale = 0;
    t.rttMicros = 0;
    t.sndWnd = 0;
    return t;
  }

  /** A connect the broker refused (its host up, its port not yet listening): closed, no options. */
  static TcpInfos refused() {
    TcpInfos t = connecting();
    t.state = TcpState.CLOSE;
    return t;
  }

  TcpInfos with(java.util.function.Consumer<TcpInfos> change) {
    change.accept(this);
    return this;
  }

  TcpInfo build() {
    return new TcpInfo(
        236,
        state,
        options,
        sndWscale,
        rcvWscale,
        rttMicros,
        rttMicros / 4,
        mss,
        cwnd,
        retrans,
        OptionalLong.of(1_000),
        OptionalLong.of(1_000),
        OptionalLong.of(notsent),
        OptionalLong.of(rttMicros),
        OptionalLong.of(deliveryRate),
        OptionalLong.of(busy),
        OptionalLong.of(rwndLimited),
        OptionalLong.of(sndbufLimited),
        OptionalLong.of(1_000),
        OptionalLong.of(sndWnd),
        OptionalLong.of(rcvWnd),
        retransmits,
        rtoMicros,
        unacked,
        lastAckRecvMillis,
        appLimited);
  }
}
