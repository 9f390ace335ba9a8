package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.RequiresDocker;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The reconnect-storm lab at a size the default suite can afford ({@link ReconnectStormLab} is the
 * full one): one client JVM of 50 producers and 50 consumers per phase. After the preferred leader
 * election the gates must defer the reconnects and let them through after delays drawn from the
 * window (their own counters), lower the peak of new connections per 100 ms against the phase
 * without the gate, bring every client back within the window of what that phase took, and no
 * acknowledged record may be lost or written twice.
 */
@RequiresDocker("the brokers' own network namespaces with small listen queues")
class ReconnectStormTest {

  private static final Duration WINDOW = Duration.ofSeconds(3);

  @Test
  void theGateFlattensTheReconnectWaveAfterAPreferredLeaderElection() throws Exception {
    ReconnectStorm.Scale scale =
        new ReconnectStorm.Scale(
            1,
            50,
            50,
            WINDOW,
            16,
            WINDOW.plusSeconds(6),
            Duration.ofMillis(100),
            ReconnectStorm.Fetch.EAGER);
    ReconnectStorm.Result r =
        new ReconnectStorm(scale, Path.of("target", "reconnect-storm-test")).run();
    String table = StormReport.table(r);
    System.out.println(table);
    ReconnectStorm.writeFile(Path.of("target", "reconnect-storm-test", "table.md"), table);
    ReconnectStorm.writeFile(
        Path.of("target", "reconnect-storm-test", "series.csv"), StormReport.csv(r));

    long peakOff = r.off().series().peakWithin(100);
    long peakOn = r.on().series().peakWithin(100);
    GateTally gateOff = r.off().gateDecisions();
    GateTally gateOn = r.on().gateDecisions();
    assertThat(r.off().series().allReconnectedMs()).as("gate off: all reconnected").isPresent();
    assertThat(r.on().series().allReconnectedMs()).as("gate on: all reconnected").isPresent();
    // What the gates decided, from their own counters: off, nothing held back; on, the clients
    // that wanted the broker again were deferred and let through after a delay drawn from the
    // window (uniform: a mean of about half of it).
    assertThat(gateOff.outcomes().getOrDefault("deferred", 0L))
        .as("gate off: reconnects deferred")
        .isZero();
    assertThat(gateOn.outcomes().getOrDefault("deferred", 0L))
        .as("gate on: reconnects deferred (%s)", gateOn.describe())
        .isGreaterThanOrEqualTo(scale.clients() / 2);
    assertThat(gateOn.delays())
        .as("gate on: reconnects let through after their delay (%s)", gateOn.describe())
        .isGreaterThanOrEqualTo(scale.clients() / 2);
    assertThat(gateOn.delaySumSeconds() / gateOn.delays())
        .as("gate on: mean delay from want to connect, s")
        .isLessThan(WINDOW.toMillis() / 1000.0);
    // Against this run's own baseline, the phase without the gate on the same machine: the gate
    // adds at most its window to the time all clients take to come back, and lowers the peak.
    // Counted from the first reconnect, i.e. from when the clients learned of the election: on a
    // loaded machine that comes seconds after the controller finished.
    assertThat(r.on().series().allReconnectedAfterFirstMs().orElse(Long.MAX_VALUE))
        .as("gate on: all reconnected within the window of the time the gate-off phase took")
        .isLessThanOrEqualTo(
            r.off().series().allReconnectedAfterFirstMs().orElse(0) + WINDOW.toMillis() + 2000);
    assertThat(peakOff)
        .as("gate off: the election brings a wave of reconnects (else there is nothing to compare)")
        .isGreaterThanOrEqualTo(scale.clients() / 5);
    assertThat(peakOn * 2)
        .as("peak per 100 ms, gate on (%d) at most half of gate off (%d)", peakOn, peakOff)
        .isLessThanOrEqualTo(peakOff);
    for (ReconnectStorm.Phase p : new ReconnectStorm.Phase[] {r.off(), r.on()}) {
      assertThat(p.records().acked()).as(p.name() + ": records acknowledged").isPositive();
      assertThat(p.records().lost()).as(p.name() + ": acknowledged records lost").isZero();
      assertThat(p.records().duplicated()).as(p.name() + ": records duplicated").isZero();
    }
  }
}
