package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigKeyCatalog;
import io.faultline.core.finding.FindingCatalog;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostTcpMetricsTest {

  @TempDir Path dir;

  @Test
  void exposesCountersAndGaugesAndRemovesThemOnClose() {
    FixtureTree t = FixtureTree.copy("risky", dir);
    t.set(
        "proc/net/netstat",
        "TcpExt: SyncookiesSent SyncookiesRecv ListenOverflows ListenDrops\nTcpExt: 42 40 7 9\n");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    HostTcpMetrics metrics = new HostTcpMetrics(t.proc());
    metrics.bindTo(registry);

    FunctionCounter sent = registry.get("faultline.host.tcp.syncookies.sent").functionCounter();
    assertThat(sent.count()).isEqualTo(42);
    assertThat(registry.get("faultline.host.tcp.listen.overflows").functionCounter().count())
        .isEqualTo(7);
    Gauge tw = registry.get("faultline.host.tcp.time.wait").gauge();
    assertThat(tw.value()).isEqualTo(27_012);
    assertThat(registry.get("faultline.host.tcp.ephemeral.ports").gauge().value())
        .isEqualTo(28_232);
    // Counters absent from this kernel's netstat are not registered rather than reported as 0.
    assertThat(registry.find("faultline.host.tcp.reqq.full.drops").meter()).isNull();
    for (Meter m : registry.getMeters()) {
      assertThat(m.getId().getDescription()).as(m.getId().getName()).isNotBlank();
      assertThat(m.getId().getBaseUnit()).as(m.getId().getName()).isNotBlank();
    }

    t.set("proc/net/netstat", "TcpExt: SyncookiesSent SyncookiesRecv\nTcpExt: 50 40\n");
    assertThat(sent.count()).isEqualTo(50);

    metrics.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void twoTaggedReadersShareARegistryAndCloseRemovesOnlyItsOwn() {
    FixtureTree host = FixtureTree.copy("risky", dir.resolve("host"));
    FixtureTree broker = FixtureTree.copy("risky", dir.resolve("broker"));
    host.set("proc/net/netstat", "TcpExt: SyncookiesSent\nTcpExt: 42\n");
    broker.set("proc/net/netstat", "TcpExt: SyncookiesSent\nTcpExt: 5\n");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    HostTcpMetrics hostMetrics = new HostTcpMetrics(host.proc(), Tags.of("namespace", "host"));
    HostTcpMetrics brokerMetrics =
        new HostTcpMetrics(broker.proc(), Tags.of("namespace", "broker"));
    hostMetrics.bindTo(registry);
    brokerMetrics.bindTo(registry);

    assertThat(sent(registry, "broker")).isEqualTo(5);
    assertThat(sent(registry, "host")).isEqualTo(42);
    int brokerMeters = registry.find("faultline.host.tcp.inuse").meters().size();
    assertThat(brokerMeters).isEqualTo(2);

    hostMetrics.close();
    assertThat(registry.getMeters())
        .isNotEmpty()
        .allSatisfy(m -> assertThat(m.getId().getTag("namespace")).isEqualTo("broker"));
    assertThat(sent(registry, "broker")).isEqualTo(5);
    brokerMetrics.close();
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void closeRemovesTheMetersFromEveryRegistryItWasBoundTo() {
    FixtureTree t = FixtureTree.copy("risky", dir);
    SimpleMeterRegistry first = new SimpleMeterRegistry();
    SimpleMeterRegistry second = new SimpleMeterRegistry();
    HostTcpMetrics metrics = new HostTcpMetrics(t.proc());
    metrics.bindTo(first);
    metrics.bindTo(second);
    assertThat(first.getMeters()).isNotEmpty().hasSameSizeAs(second.getMeters());

    metrics.close();
    assertThat(first.getMeters()).isEmpty();
    assertThat(second.getMeters()).isEmpty();
  }

  private static double sent(SimpleMeterRegistry registry, String namespace) {
    return registry
        .get("faultline.host.tcp.syncookies.sent")
        .tag("namespace", namespace)
        .functionCounter()
        .count();
  }

  @Test
  void catalogsAreRegisteredForServiceLoader() {
    assertThat(ServiceLoader.load(FindingCatalog.class).stream())
        .anyMatch(p -> p.type() == HostFindingTypes.class);
    assertThat(ServiceLoader.load(ConfigKeyCatalog.class).stream())
        .anyMatch(p -> p.type() == HostConfigKeys.class);
    assertThat(new HostFindingTypes().findingTypes())
        .extracting(f -> f.id())
        .contains(
            "SYN_COOKIE_WSCALE_KERNEL_BUG",
            "SYN_COOKIES_WITHOUT_TIMESTAMPS",
            "TCP_WINDOW_SCALING_DISABLED",
            "LISTEN_QUEUE_OVERFLOWING",
            "SYN_COOKIES_SENT",
            "EPHEMERAL_PORTS_LOW",
            "SOCKET_BUFFER_CEILING_LOW",
            "RECEIVE_STEERING_SINGLE_CORE")
        .doesNotHaveDuplicates();
    assertThat(DoctorOptions.defaults().expectedConnections())
        .isEqualTo(HostConfigKeys.EXPECTED_CONNECTIONS.defaultValue());
  }
}
