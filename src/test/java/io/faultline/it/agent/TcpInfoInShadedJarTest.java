package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TCP_INFO works inside the shaded agent: {@code sun.nio.ch} is opened by the agent (no {@code
 * --add-opens} on the command line); on JDK 22 and later {@code getsockopt} is linked with the
 * Foreign Function &amp; Memory API in a module the agent grants native access, with no
 * restricted-method warning in the application's output; before that JDK, JNA, nested unrelocated
 * in the jar, loads its native library from there while staying invisible to the application, and
 * the delivery sample is read through the agent's own JNI library without loading JNA.
 */
class TcpInfoInShadedJarTest {

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void readsTcpInfoOfALoopbackConnectionThroughTheAgent(Jdk jdk) {
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .agentArgs("prometheus.port=0")
            .run(60, "io.faultline.it.agent.app.TcpInfoApp")
            .assertCleanExit();
    // The child's log says why when TCP_INFO could not be read.
    assertThat(result.stdout())
        .as("the child's error output:%n%s", result.stderr())
        .containsPattern("fd=\\d+\\n")
        .contains("reader supported=true")
        .containsPattern("tcpinfo state=ESTABLISHED rtt=\\d+")
        .contains("jna loader=isolated");
    boolean foreign = jdk.feature() >= 22;
    assertThat(result.stdout())
        .contains(foreign ? "reader class=ForeignTcpInfoReader" : "reader class=JniDeliverySample")
        .contains("delivery acked=101 unacked=0");
    if (!foreign) {
      assertThat(result.stdout()).contains("jna loaded by the delivery sample=null");
    }
    assertThat(result.stderr()).doesNotContain("restricted method");
  }

  /**
   * Where JNA's native part cannot load (here: JNA told not to unpack it), the reader says so; the
   * agent does not retry JNA from its own loader, which cannot see it, and hide the reason.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void whenJnaCannotLoadTheReaderSaysWhy(Jdk jdk) {
    assumeTrue(jdk.feature() < 22, "JNA is the route only before JDK 22");
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .option("-Djna.nounpack=true")
            .option("-Djna.nosys=true")
            .agentArgs("prometheus.port=0")
            .run(60, "io.faultline.it.agent.app.TcpInfoApp")
            .assertCleanExit();
    assertThat(result.stdout())
        .as("the child's error output:%n%s", result.stderr())
        .contains("delivery acked=101 unacked=0")
        .containsPattern("tcpinfo unavailable .*JNA could not load libc")
        .doesNotContain("LastErrorException");
    assertThat(result.stderr())
        .contains("per-connection TCP facts are off: JNA could not load libc");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void withoutTheAgentTheChannelDescriptorIsUnavailableWithTheReason(Jdk jdk) {
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .withoutAgent()
            .classPath(ChildJvm.agentJar())
            .run(60, "io.faultline.it.agent.app.TcpInfoApp")
            .assertCleanExit();
    assertThat(result.stdout()).contains("fd=none", "java.base/sun.nio.ch is not opened");
  }
}
