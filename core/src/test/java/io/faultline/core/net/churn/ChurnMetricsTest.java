package io.faultline.core.net.churn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.faultline.core.finding.Findings;
import io.faultline.core.host.PortBudget;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ChurnMetricsTest {

  @Test
  void destinationsGetACounterAndARateAndCloseRemovesThem() {
    ConnectChurn churn = new ConnectChurn(8);
    AtomicLong nanos = new AtomicLong(1);
    ChurnMonitor monitor =
        new ChurnMonitor(
            churn,
            () -> Optional.of(new PortBudget(32768, 60999, 0, 0, OptionalLong.of(2))),
            new Findings(Duration.ofMinutes(10), Clock.systemUTC(), System.getLogger("test")),
            new ChurnMonitor.Settings(0.5, 5.0, 3),
            nanos::get);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ChurnMetrics metrics = new ChurnMetrics(churn, monitor);
    metrics.bindTo(registry);
    monitor.evaluate();

    for (int i = 0; i < 40; i++) {
      churn.connected(InetSocketAddress.createUnresolved("db", 5432));
    }
    nanos.addAndGet(Duration.ofSeconds(10).toNanos());
    monitor.evaluate();
    metrics.refresh();

    assertThat(
            registry
                .get("faultline.net.connects")
                .tag("destination", "db:5432")
                .functionCounter()
                .count())
        .isEqualTo(40.0);
    assertThat(
            registry
                .get("faultline.net.connect.rate")
                .tag("destination", "db:5432")
                .gauge()
                .value())
        .isEqualTo(4.0);

    metrics.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void twoTaggedBindersShareARegistryAndCloseRemovesOnlyItsOwn() {
    ConnectChurn churn = new ConnectChurn(8);
    ChurnMonitor monitor =
        new ChurnMonitor(
            churn,
            Optional::empty,
            new Findings(Duration.ofMinutes(10), Clock.systemUTC(), System.getLogger("test")),
            new ChurnMonitor.Settings(0.5, 5.0, 3),
            System::nanoTime);
    churn.connected(InetSocketAddress.createUnresolved("db", 5432));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    SimpleMeterRegistry other = new SimpleMeterRegistry();
    ChurnMetrics a = new ChurnMetrics(churn, monitor, Tags.of("side", "a"));
    ChurnMetrics b = new ChurnMetrics(churn, monitor, Tags.of("side", "b"));
    a.bindTo(registry);
    a.bindTo(other);
    b.bindTo(registry);

    churn.connected(InetSocketAddress.createUnresolved("cache", 6379));
    a.refresh();
    b.refresh();
    assertThat(registry.find("faultline.net.connects").tag("side", "a").meters()).hasSize(2);
    assertThat(registry.find("faultline.net.connects").tag("side", "b").meters()).hasSize(2);
    assertThat(other.find("faultline.net.connects").meters()).hasSize(2);

    a.close();
    assertThat(other.getMeters()).isEmpty();
    assertThat(registry.getMeters())
        .hasSize(4)
        .allSatisfy(m -> assertThat(m.getId().getTag("side")).isEqualTo("b"));
    b.close();
  }

  @Test
  void refusesTheDestinationKeyAsAnExtraTag() {
    ConnectChurn churn = new ConnectChurn(1);
    ChurnMonitor monitor =
        new ChurnMonitor(
            churn,
            Optional::empty,
            new Findings(Duration.ofMinutes(10), Clock.systemUTC(), System.getLogger("test")),
            new ChurnMonitor.Settings(0.5, 5.0, 3),
            System::nanoTime);
    assertThatThrownBy(() -> new ChurnMetrics(churn, monitor, Tags.of("destination", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'destination'");
  }
}
