package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An application with its own Micrometer sees Faultline's meters in its {@code
 * Metrics.globalRegistry}, under the same names, although the agent's Micrometer is a relocated
 * copy.
 */
class MicrometerBridgeTest {

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void agentMetersAppearInTheApplicationsGlobalRegistry(Jdk jdk) {
    ChildJvm.Result result =
        withApplicationMicrometer(ChildJvm.on(jdk).agentArgs("prometheus.port=0"))
            .run(60, "io.faultline.it.agent.app.MicrometerApp")
            .assertCleanExit();
    assertThat(result.stdout())
        .contains("meter faultline.findings.active Findings of this id and severity")
        .contains("meter faultline.findings.raised Times a finding of this id became active");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void bridgeOffLeavesTheApplicationsRegistryAlone(Jdk jdk) {
    ChildJvm.Result result =
        withApplicationMicrometer(
                ChildJvm.on(jdk).agentArgs("prometheus.port=0,micrometer.bridge=off"))
            // Nothing is expected to appear: wait 3 s for it rather than 15.
            .run(60, "io.faultline.it.agent.app.MicrometerApp", "3")
            .assertCleanExit();
    assertThat(result.stdout()).contains("meters 0");
  }

  private static ChildJvm withApplicationMicrometer(ChildJvm child) {
    return child
        .classPath(ChildJvm.jarOf(io.micrometer.core.instrument.Metrics.class))
        .classPath(ChildJvm.jarOf(io.micrometer.common.util.StringUtils.class))
        .classPath(ChildJvm.jarOf(io.micrometer.observation.Observation.class))
        .classPath(ChildJvm.jarOf(org.HdrHistogram.Histogram.class));
  }
}
