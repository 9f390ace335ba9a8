package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge against an unrelocated Micrometer (here the application's and the agent's are the same
 * classes, which the reflective bridge does not care about; the relocated case runs in the
 * integration suite's MicrometerBridgeTest).
 */
class ApplicationMicrometerBridgeTest {

  private final SimpleMeterRegistry app = new SimpleMeterRegistry();

  @AfterEach
  void detach() {
    Metrics.removeRegistry(app);
    Metrics.globalRegistry.getMeters().forEach(Metrics.globalRegistry::remove);
  }

  @Test
  void mirrorsExistingAndLaterMetersWithNameTagsDescriptionAndValues() {
    Metrics.addRegistry(app);
    SimpleMeterRegistry agent = new SimpleMeterRegistry();
    Counter counter =
        Counter.builder("faultline.unit.count")
            .tag("module", "m")
            .description("d1")
            .register(agent);
    counter.increment(3);
    ApplicationMicrometerBridge bridge = new ApplicationMicrometerBridge(agent);
    assertThat(bridge.bridgeInto(getClass().getClassLoader())).isTrue();

    AtomicInteger level = new AtomicInteger(7);
    agent.gauge("faultline.unit.level", level);
    Timer.builder("faultline.unit.time").register(agent).record(Duration.ofMillis(250));

    Meter mirrored = app.find("faultline.unit.count").tag("module", "m").meter();
    assertThat(mirrored).isNotNull();
    assertThat(mirrored.getId().getDescription()).isEqualTo("d1");
    assertThat(app.get("faultline.unit.count").functionCounter().count()).isEqualTo(3.0);
    counter.increment();
    assertThat(app.get("faultline.unit.count").functionCounter().count()).isEqualTo(4.0);
    assertThat(app.get("faultline.unit.level").gauge().value()).isEqualTo(7.0);
    assertThat(app.get("faultline.unit.time").functionTimer().count()).isEqualTo(1.0);

    agent.remove(counter);
    assertThat(app.find("faultline.unit.count").meter()).isNull();
  }

  @Test
  void aLoaderWithoutMicrometerIsAMessageNotAnError() {
    ClassLoader empty = new ClassLoader(null) {};
    assertThat(new ApplicationMicrometerBridge(new SimpleMeterRegistry()).bridgeInto(empty))
        .isFalse();
    assertThat(new ApplicationMicrometerBridge(new SimpleMeterRegistry()).bridgeInto(null))
        .isFalse();
  }
}
