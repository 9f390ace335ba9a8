package io.faultline.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.net.TcpState;
import org.junit.jupiter.api.Test;

class LinkStallTest {

  private static TcpInfos stalled() {
    return TcpInfos.healthy()
        .with(
            t -> {
              t.unacked = 4;
              t.retransmits = 4;
              t.rtoMicros = 3_200_000;
              t.lastAckRecvMillis = 6_100;
            });
  }

  @Test
  void dataUnacknowledgedForSecondsWithTheTimerFiringIsAStall() {
    var stall = LinkStall.of(stalled().build()).orElseThrow();
    assertThat(stall).isEqualTo(new LinkStall.Stall(6_100, 4, 4, 3_200));
  }

  @Test
  void anIdleConnectionLongWithoutAnAcknowledgementIsNot() {
    // Nothing in flight: there is nothing to acknowledge.
    assertThat(LinkStall.of(stalled().with(t -> t.unacked = 0).build())).isEmpty();
  }

  @Test
  void lossOnAWorkingPathIsNot() {
    // Retransmitted, but an acknowledgement came a moment ago.
    assertThat(LinkStall.of(stalled().with(t -> t.lastAckRecvMillis = 900).build())).isEmpty();
    // Long silent, but the timer fired only twice: a long RTO, not yet a stall.
    assertThat(LinkStall.of(stalled().with(t -> t.retransmits = 2).build())).isEmpty();
  }

  @Test
  void aBrokerThatStopsReadingIsNot() {
    // A paused broker's kernel still acknowledges; once its buffer is full the window is zero
    // and the sender probes it: everything sent is acknowledged.
    assertThat(
            LinkStall.of(
                stalled()
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
    assertThat(LinkStall.of(stalled().with(t -> t.state = TcpState.SYN_SENT).build())).isEmpty();
    assertThat(LinkStall.of(stalled().with(t -> t.state = TcpState.FIN_WAIT1).build())).isEmpty();
  }
}
