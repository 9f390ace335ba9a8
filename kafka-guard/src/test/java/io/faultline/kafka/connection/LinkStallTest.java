package io.faultline.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.net.TcpState;
import org.junit.jupiter.api.Test;

class LinkStallTest {

  @Test
  void dataUnacknowledgedForSecondsWithTheTimerFiringIsAStall() {
    var stall = LinkStall.of(TcpInfos.stalled().build()).orElseThrow();
    assertThat(stall).isEqualTo(new LinkStall.Stall(7_000, 9, 5, 6_400));
    // At the thresholds: 5 s silent, the third timeout.
    assertThat(
            LinkStall.of(
                TcpInfos.stalled()
                    .with(
                        t -> {
                          t.lastAckRecvMillis = 5_000;
                          t.retransmits = 3;
                        })
                    .build()))
        .isPresent();
  }

  @Test
  void anIdleConnectionLongWithoutAnAcknowledgementIsNot() {
    // Nothing in flight: there is nothing to acknowledge.
    assertThat(LinkStall.of(TcpInfos.stalled().with(t -> t.unacked = 0).build())).isEmpty();
  }

  @Test
  void lossOnAWorkingPathIsNot() {
    // Retransmitted, but an acknowledgement came a moment ago.
    assertThat(LinkStall.of(TcpInfos.stalled().with(t -> t.lastAckRecvMillis = 4_999).build()))
        .isEmpty();
    // Long silent, but the timer fired only twice: a long RTO, not yet a stall.
    assertThat(LinkStall.of(TcpInfos.stalled().with(t -> t.retransmits = 2).build())).isEmpty();
  }

  @Test
  void aBrokerThatStopsReadingIsNot() {
    // A paused broker's kernel still acknowledges; once its buffer is full the window is zero
    // and the sender probes it: everything sent is acknowledged.
    assertThat(
            LinkStall.of(
                TcpInfos.stalled()
                    .with(
                        t -> {
                          t.unacked = 0;
                          t.sndWnd = 0;
                          t.notsent = 500_000;
                        })
                    .build()))
        .isEmpty();
  }

  @Test
  void onlyAnEstablishedConnectionIsJudged() {
    assertThat(LinkStall.of(TcpInfos.stalled().with(t -> t.state = TcpState.SYN_SENT).build()))
        .isEmpty();
    assertThat(LinkStall.of(TcpInfos.stalled().with(t -> t.state = TcpState.FIN_WAIT1).build()))
        .isEmpty();
  }
}
