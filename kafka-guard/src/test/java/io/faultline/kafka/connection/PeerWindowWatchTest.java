package io.faultline.kafka.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.net.TcpInfo;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PeerWindowWatchTest {

  private static final long SECOND = 1_000_000_000L;

  private final PeerWindowWatch watch = new PeerWindowWatch();

  /** The LINE Kafka incident's connection: a 1.5 KB window while a batch waits. */
  private static TcpInfos crippled() {
    return TcpInfos.healthy()
        .with(
            t -> {
              t.sndWscale = 1;
              t.sndWnd = 1_536;
              t.notsent = 900_000;
              t.rttMicros = 2_000;
            });
  }

  private Optional<PeerWindowWatch.Collapse> observe(TcpInfos sample, long atNanos) {
    return watch.observe(TcpFacts.of(sample.build()), atNanos);
  }

  @Test
  void aWindowHeldSmallForThreeSamplesOverTenSecondsIsACollapse() {
    assertThat(observe(crippled(), 0)).isEmpty();
    assertThat(observe(crippled(), 5 * SECOND)).isEmpty();
    var collapse = observe(crippled(), 10 * SECOND);
    assertThat(collapse)
        .hasValueSatisfying(
            c -> {
              assertThat(c.window()).isEqualTo(1_536);
              assertThat(c.maxWindow()).isEqualTo(1_536);
              assertThat(c.samples()).isEqualTo(3);
              assertThat(c.seconds()).isEqualTo(10.0);
              assertThat(c.idleSamples()).isZero();
            });
    assertThat(observe(crippled(), 20 * SECOND)).as("and stays one").isPresent();
  }

  @Test
  void threeSamplesWithinASecondAreNotEnough() {
    // Slow requests sample at once: three samples can come within a burst of flow control.
    assertThat(observe(crippled(), 0)).isEmpty();
    assertThat(observe(crippled(), SECOND / 2)).isEmpty();
    assertThat(observe(crippled(), SECOND)).isEmpty();
    assertThat(observe(crippled(), 10 * SECOND)).as("the same run, now 10 s long").isPresent();
  }

  @Test
  void loopbackWindowOfTwoSegmentsIsHealthy() {
    // What BrokerConnectionReportTest saw once: MSS 65,483, a 131,070-byte window, nothing waiting
    // but 86 % of the busy time window-limited.
    TcpInfos loopback =
        TcpInfos.healthy()
            .with(
                t -> {
                  t.sndWscale = 1;
                  t.mss = 65_483;
                  t.cwnd = 10;
                  t.sndWnd = 131_070;
                  t.notsent = 0;
                  t.rttMicros = 50;
                  t.busy = 1_000_000;
                  t.rwndLimited = 860_000;
                });
    assertThat(PeerWindowWatch.starved(TcpFacts.of(loopback.build())))
        .as("held back by the window, which is below the congestion window")
        .isTrue();
    for (int i = 0; i < 10; i++) {
      assertThat(observe(loopback, i * 10 * SECOND)).as("but it is past 64 KiB").isEmpty();
    }
  }

  @Test
  void aBusyBrokersFlowControlIsNotACollapse() {
    // A veth broker draining its socket: the window opened to 101 KB, then fell to 1,112 bytes
    // while 64 KB waited, for longer than the rule's 10 s here.
    TcpInfos open = crippled().with(t -> t.sndWnd = 101_218).with(t -> t.notsent = 0);
    TcpInfos draining = crippled().with(t -> t.sndWnd = 1_112).with(t -> t.notsent = 64_000);
    assertThat(observe(open, 0)).isEmpty();
    for (int i = 1; i <= 5; i++) {
      assertThat(observe(draining, i * 5 * SECOND)).isEmpty();
    }
  }

  @Test
  void aShortStarvationResetsWhenTheWindowReopens() {
    TcpInfos draining = crippled().with(t -> t.sndWnd = 1_112).with(t -> t.notsent = 64_000);
    TcpInfos reopened = crippled().with(t -> t.sndWnd = 60_000).with(t -> t.notsent = 0);
    assertThat(observe(draining, 0)).isEmpty();
    assertThat(observe(draining, 5 * SECOND)).isEmpty();
    assertThat(observe(reopened, 6 * SECOND)).isEmpty();
    assertThat(observe(draining, 11 * SECOND)).isEmpty();
    assertThat(observe(draining, 16 * SECOND)).as("two in a row since the reopening").isEmpty();
    assertThat(observe(draining, 21 * SECOND))
        .as("three in a row over 10 s, and the window never passed 64 KiB")
        .hasValueSatisfying(c -> assertThat(c.idleSamples()).isEqualTo(1));
  }

  @Test
  void aSmallWindowThatHoldsNothingBackIsNotStarved() {
    TcpInfos idle = crippled().with(t -> t.notsent = 0);
    TcpInfos fewWaiting = crippled().with(t -> t.notsent = 1_000);
    assertThat(PeerWindowWatch.starved(TcpFacts.of(idle.build()))).isFalse();
    assertThat(PeerWindowWatch.starved(TcpFacts.of(fewWaiting.build())))
        .as("less waits than the window holds")
        .isFalse();
    for (int i = 0; i < 5; i++) {
      assertThat(observe(idle, i * 10 * SECOND)).isEmpty();
    }
  }

  @Test
  void aWindowAboveWhatThePathCarriesIsNotStarved() {
    // 40 KB of window against a congestion window of 10 × 1,448 bytes: the path, not the broker,
    // holds the data back.
    TcpInfos wide = crippled().with(t -> t.sndWnd = 40_000);
    assertThat(PeerWindowWatch.bdpBytes(TcpFacts.of(wide.build()))).isEqualTo(14_480);
    assertThat(PeerWindowWatch.starved(TcpFacts.of(wide.build()))).isFalse();
    // A delivery rate over the minimum RTT larger than the congestion window is the estimate.
    TcpInfos fast = wide.with(t -> t.deliveryRate = 100_000_000); // 100 MB/s × 2 ms = 200 KB
    assertThat(PeerWindowWatch.bdpBytes(TcpFacts.of(fast.build()))).isEqualTo(200_000);
    assertThat(PeerWindowWatch.starved(TcpFacts.of(fast.build()))).isTrue();
  }

  @Test
  void noWindowFromAnOldKernelIsNoJudgement() {
    TcpInfo full = crippled().build();
    TcpInfo old =
        new TcpInfo(
            full.returnedLength(),
            full.state(),
            full.options(),
            full.sndWscale(),
            full.rcvWscale(),
            full.rttMicros(),
            full.rttVarMicros(),
            full.sndMss(),
            full.sndCwnd(),
            full.totalRetrans(),
            full.bytesAcked(),
            full.bytesReceived(),
            full.notsentBytes(),
            full.minRttMicros(),
            full.deliveryRate(),
            full.busyTimeMicros(),
            full.rwndLimitedMicros(),
            full.sndbufLimitedMicros(),
            full.bytesSent(),
            java.util.OptionalLong.empty(),
            java.util.OptionalLong.empty(),
            full.retransmits(),
            full.rtoMicros(),
            full.unacked(),
            full.lastAckRecvMillis(),
            full.deliveryRateAppLimited());
    for (int i = 0; i < 5; i++) {
      assertThat(watch.observe(TcpFacts.of(old), i * 10 * SECOND)).isEmpty();
    }
  }
}
