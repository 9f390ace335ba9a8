package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.RequiresDocker;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The reconnect-storm lab at a size the default suite can afford ({@link ReconnectStormLab} is the
 * full one): one client JVM of 50 producers and 50 consumers per phase. After the preferred leader
 * election the gate must lower the peak of new connections per 100 ms, every client must be back
 * within the window + 2 s of the first reconnect, and no acknowledged record may be lost or written
 * twice.
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
    assertThat(r.off().series().allReconnectedMs()).as("gate off: all reconnected").isPresent();
    // Counted from the first reconnect, i.e. from when the clients learned of the election: on a
    // loaded machine that comes seconds after the controller finished, and the gate's window
    // counts from each client's want.
    assertThat(r.on().series().allReconnectedAfterFirstMs().orElse(Long.MAX_VALUE))
        .as("gate on: all reconnected within the window + 2 s of the first reconnect")
        .isLessThanOrEqualTo(WINDOW.toMillis() + 2000);
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
