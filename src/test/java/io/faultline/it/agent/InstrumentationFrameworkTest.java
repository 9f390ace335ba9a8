package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The instrumentation framework end to end, with the test-only modules of the agent's shaded
 * fixtures jar (registered through ServiceLoader on the application's class path): one module
 * weaves its advice; one has advice of the wrong signature, one wants a method the target lacks,
 * one has advice that throws on every call. The application must run unchanged by the broken ones,
 * and each must report itself off.
 */
class InstrumentationFrameworkTest {

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void goodModuleIsWovenAndBrokenModulesTurnThemselvesOffWithoutTheApplicationNoticing(Jdk jdk) {
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .agentArgs("prometheus.port=0,instrumentation.error-limit=5")
            .classPath(ChildJvm.fixturesJar())
            .run(60, "faultlinefixture.app.FixtureApp", "30");
    assertThat(result.exited()).isTrue();
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout())
        .contains("greet: hello world [woven]")
        .contains("count: 42")
        .contains("shout: CALL 29")
        .contains("module fixture-greeting ACTIVE errors=0 woven=[faultlinefixture.app.Greeter]")
        .contains("module fixture-wrong-signature INCOMPATIBLE errors=1")
        .contains("module fixture-missing-method INCOMPATIBLE errors=0")
        .contains("module fixture-throwing FAILED errors=5")
        // after the fifth error the advice body no longer runs
        .contains("advice-calls: 5");
    assertThat(result.stderr())
        .contains("fixture-missing-method is off: faultlinefixture.app.Greeter has no method")
        .contains("fixture-throwing turned itself off after 5 errors")
        // the guard a test runner uses: the agent reports suppressed errors at exit
        .contains(ChildJvm.ERRORS_AT_EXIT + ": 6 (fixture-throwing=5, fixture-wrong-signature=1)");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void moduleWhoseFeatureIsOffIsNeverWoven(Jdk jdk) {
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .agentArgs(
                "prometheus.port=0,fixture.greeting=off,fixture.wrong-signature=off,"
                    + "fixture.missing-method=off,fixture.throwing=off")
            .classPath(ChildJvm.fixturesJar())
            .run(60, "faultlinefixture.app.FixtureApp", "3");
    result.assertCleanExit();
    assertThat(result.stdout())
        .contains("greet: hello world\n")
        .contains("module fixture-greeting OFF_BY_CONFIG errors=0 woven=[]")
        .contains("advice-calls: 0");
  }
}
