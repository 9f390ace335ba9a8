package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link ClientTcpSummary} on made-up TCP_INFO samples: what the counters add between sweeps, what
 * the per-port gauges say, and that the per-client gauges name at most the top clients whatever
 * their number.
 */
class ClientTcpSummaryTest {

  private static final int TOP = 5;

  @Test
  void countersAddOnlyWhatGrewSinceTheFirstSweep() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    ClientTcpSummary s = new ClientTcpSummary(TOP);
    s.bindTo(r);
    InetSocketAddress a = address(1, 40000);
    InetSocketAddress b = address(2, 40001);

    s.add(9092, a, "app-a", info(500, 10, 1_000_000, 65_536));
    s.publish(Set.of(9092));
    assertThat(retransmits(r)).as("the first sweep is the baseline").isZero();
    assertThat(rwndLimited(r)).isZero();

    s.add(9092, a, "app-a", info(500, 13, 1_500_000, 65_536));
    s.add(9092, b, "app-b", info(500, 2, 250_000, 65_536));
    s.publish(Set.of(9092));
    assertThat(retransmits(r)).as("3 more on a, all 2 of the new b").isEqualTo(5);
    assertThat(rwndLimited(r)).isCloseTo(0.75, within(1e-9));

    s.add(9092, b, "app-b", info(500, 2, 250_000, 65_536)); // a closed, b unchanged
    s.publish(Set.of(9092));
    assertThat(retransmits(r)).isEqualTo(5);

    // a's address again, a new connection: lower counters than a had, all of them new.
    s.add(9092, a, "app-a", info(500, 1, 100_000, 65_536));
    s.add(9092, b, "app-b", info(500, 2, 250_000, 65_536));
    s.publish(Set.of(9092));
    assertThat(retransmits(r)).isEqualTo(6);
    assertThat(rwndLimited(r)).isCloseTo(0.85, within(1e-9));
  }

  @Test
  void portGaugesSummariseTheConnectionsOfTheLastSweep() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    ClientTcpSummary s = new ClientTcpSummary(TOP);
    s.bindTo(r);
    s.add(9092, address(1, 1), "a", info(100, 0, 0, 4_096));
    s.add(9092, address(2, 2), "b", info(300, 0, 0, 65_536));
    s.add(9092, address(3, 3), "c", info(20_000, 0, 0, 1_048_576));
    s.publish(Set.of(9092, 9093));

    assertThat(portGauge(r, HostTcpMeters.ACCEPTED_RTT_MEDIAN.name(), 9092)).isEqualTo(300e-6);
    assertThat(portGauge(r, HostTcpMeters.ACCEPTED_RTT_MAX.name(), 9092)).isEqualTo(0.02);
    assertThat(portGauge(r, HostTcpMeters.ACCEPTED_CLIENT_WINDOW_MIN.name(), 9092))
        .isEqualTo(4_096);
    assertThat(portGauge(r, HostTcpMeters.ACCEPTED_CLIENT_WINDOW_MEDIAN.name(), 9092))
        .isEqualTo(65_536);
    assertThat(portGauge(r, HostTcpMeters.ACCEPTED_RTT_MEDIAN.name(), 9093))
        .as("a listener without connections")
        .isNaN();
    assertThat(clients(r, HostTcpMeters.ACCEPTED_CLIENT_RTT.name(), 9092))
        .containsExactly(
            Map.entry("a", 100e-6),
            Map.entry("b", 300e-6),
            Map.entry("c", 0.02),
            Map.entry(ClientTcpSummary.OTHER, 0.0));

    s.publish(Set.of(9093)); // 9092 is no longer a listener
    assertThat(r.find(HostTcpMeters.ACCEPTED_RTT_MEDIAN.name()).tag("port", "9092").gauge())
        .isNull();
    assertThat(clients(r, HostTcpMeters.ACCEPTED_CLIENT_RTT.name(), 9092)).isEmpty();
    s.close();
    assertThat(r.getMeters()).isEmpty();
  }

  /**
   * A thousand clients, each with its own retransmits and rwnd-limited time, then a thousand
   * others: the per-client gauges name the top five of the sweep and sum the rest under "other";
   * the number of meters stays the same.
   */
  @Test
  void theClientsNamedAreTheTopFiveWhateverTheirNumber() {
    SimpleMeterRegistry r = new SimpleMeterRegistry();
    ClientTcpSummary s = new ClientTcpSummary(TOP);
    s.bindTo(r);
    int meters = -1;
    for (int round = 0; round < 2; round++) {
      long total = 0;
      for (int i = 1; i <= 1000; i++) {
        String client = "client-" + round + "-" + i;
        // Retransmits rise with i, rwnd-limited time falls with it; client 0 has neither.
        s.add(9092, address(round * 1000 + i, 30000), client, info(100, i, (1001 - i) * 1000L, 0));
        total += i;
      }
      s.add(9092, address(99_999, 1), "idle", info(100, 0, 0, 0));
      s.publish(Set.of(9092));

      Map<String, Double> byRetrans =
          clients(r, HostTcpMeters.ACCEPTED_CLIENT_RETRANSMITS.name(), 9092);
      String p = "client-" + round + "-";
      assertThat(byRetrans)
          .containsOnlyKeys(
              p + "1000", p + "999", p + "998", p + "997", p + "996", ClientTcpSummary.OTHER);
      assertThat(byRetrans.get(p + "1000")).isEqualTo(1000);
      assertThat(byRetrans.get(ClientTcpSummary.OTHER))
          .isEqualTo(total - (1000 + 999 + 998 + 997 + 996));
      Map<String, Double> byRwnd =
          clients(r, HostTcpMeters.ACCEPTED_CLIENT_RWND_LIMITED.name(), 9092);
      assertThat(byRwnd)
          .containsOnlyKeys(p + "1", p + "2", p + "3", p + "4", p + "5", ClientTcpSummary.OTHER);
      assertThat(byRwnd.get(p + "1")).isCloseTo(1.0, within(1e-9));
      assertThat(clients(r, HostTcpMeters.ACCEPTED_CLIENT_RTT.name(), 9092)).hasSize(TOP + 1);
      if (meters >= 0) {
        assertThat(r.getMeters()).hasSize(meters);
      }
      meters = r.getMeters().size();
    }
    assertThat(meters).as("6 per-port meters and 3 x 6 per-client rows").isEqualTo(6 + 3 * 6);
  }

  private static double retransmits(SimpleMeterRegistry r) {
    return r.get(HostTcpMeters.ACCEPTED_RETRANSMITS.name())
        .tag("port", "9092")
        .functionCounter()
        .count();
  }

  private static double rwndLimited(SimpleMeterRegistry r) {
    return r.get(HostTcpMeters.ACCEPTED_RWND_LIMITED.name())
        .tag("port", "9092")
        .functionCounter()
        .count();
  }

  private static double portGauge(SimpleMeterRegistry r, String name, int port) {
    return r.get(name).tag("port", Integer.toString(port)).gauge().value();
  }

  /** Client tag to value of the per-client gauge {@code name} on {@code port}. */
  private static Map<String, Double> clients(SimpleMeterRegistry r, String name, int port) {
    Map<String, Double> out = new TreeMap<>();
    for (Meter m : r.find(name).tag("port", Integer.toString(port)).meters()) {
      out.put(m.getId().getTag("client"), ((Gauge) m).value());
    }
    return out;
  }

  private static InetSocketAddress address(int host, int port) {
    return new InetSocketAddress(
        "10." + ((host >> 16) & 0xff) + "." + ((host >> 8) & 0xff) + "." + (host & 0xff), port);
  }

  private static TcpInfo info(long rttMicros, long retrans, long rwndLimitedMicros, long sndWnd) {
    OptionalLong none = OptionalLong.empty();
    return new TcpInfo(
        232,
        TcpState.ESTABLISHED,
        TcpInfo.OPT_WSCALE,
        7,
        7,
        rttMicros,
        rttMicros / 2,
        1448,
        10,
        retrans,
        none,
        none,
        none,
        none,
        none,
        none,
        OptionalLong.of(rwndLimitedMicros),
        none,
        none,
        OptionalLong.of(sndWnd),
        none,
        0,
        200_000,
        0,
        1,
        false);
  }
}
