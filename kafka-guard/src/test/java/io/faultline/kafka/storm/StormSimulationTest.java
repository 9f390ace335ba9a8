package io.faultline.kafka.storm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The storm simulation, calibrated against the 500-client lab's measured ranges
 * (docs/benchmarks.md, "Reconnect storm"), and what it says at the LINE Kafka incident's scale.
 * Seeds are fixed: the figures are the model's, not a machine's.
 */
class StormSimulationTest {

  @Test
  void theLabsShapeStaysWithinWhatTheLabMeasured() {
    List<StormSimulation.Result> off = StormTable.runs(5, seed -> StormTable.lab(false, 0, seed));
    List<StormSimulation.Result> on = StormTable.runs(5, seed -> StormTable.lab(true, 3, seed));
    // The lab, gate off: 64-126 handshakes per 100 ms reached the listener, 52-90 accepted,
    // 6-458 listen overflows, 0-44 SYN cookies.
    assertThat(off)
        .allSatisfy(
            r -> {
              assertThat(r.peakHandshakesPer100ms()).isBetween(64, 126);
              assertThat(r.peakAcceptedPer100ms()).isBetween(52, 90);
              assertThat(r.overflows()).isBetween(6L, 458L);
              assertThat(r.synCookies()).isLessThanOrEqualTo(200);
              assertThat(r.connected()).isEqualTo(500);
            });
    // Gate on (3 s): 19-24 per 100 ms, no overflow, no cookie.
    assertThat(on)
        .allSatisfy(
            r -> {
              assertThat(r.peakHandshakesPer100ms()).isBetween(15, 32);
              assertThat(r.overflows()).isZero();
              assertThat(r.synCookies()).isZero();
              assertThat(r.connected()).isEqualTo(500);
            });
  }

  @Test
  void atLinesScaleTheCappedWindowRemovesTheCookiesAndTheWindowMustOutpaceTheAcceptor() {
    StormSimulation.Result off = new StormSimulation(StormTable.line(false, 0, 50, 1)).run();
    StormSimulation.Result threeSeconds =
        new StormSimulation(StormTable.line(true, 3, 50, 1)).run();
    StormSimulation.Result capped = new StormSimulation(StormTable.line(true, 7.5, 50, 1)).run();

    // Without the gate most clients' handshakes overflow into SYN cookies: on a kernel before 5.10
    // each such connection loses window scaling.
    assertThat(off.synCookies()).isGreaterThan(9_000);
    // 18,000 clients over 3 s is 6,000 a second, more than the acceptor's 5,000: still cookies.
    assertThat(threeSeconds.synCookies()).isPositive();
    // Over the capped window (7.5 s) they come slower than the acceptor takes them.
    assertThat(capped.synCookies()).isZero();
    assertThat(capped.overflows()).isZero();
    assertThat(off.peakHandshakesPer100ms())
        .isGreaterThanOrEqualTo(6 * capped.peakHandshakesPer100ms());
    assertThat(capped.connected()).isEqualTo(18_000);
    assertThat(capped.secondsUntilAllBack()).isLessThan(7.5 + 1.0 + 1.0);
  }
}
