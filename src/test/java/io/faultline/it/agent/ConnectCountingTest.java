package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent's {@code jdk-socket-connect} module, woven into {@code java.base}, counts each new
 * outbound connection exactly once, whichever way the JDK opens it (classic {@code Socket}, its
 * constructor, a blocking and a non-blocking {@code SocketChannel}, a channel's socket adaptor),
 * and not the connects that fail, without appending to the bootstrap class path; the application
 * behaves the same with the module off.
 */
class ConnectCountingTest {

  private static final int N = 7;
  private static final Pattern KIND = Pattern.compile("kind (\\S+) (\\S+)");

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void countsEveryWayOfConnectingOnceAndNoFailedConnect(Jdk jdk) {
    int port = Http.freePort();
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .agentArgs("prometheus.port=" + port + ",net.churn.interval=200ms")
            .run(90, "io.faultline.it.agent.app.ConnectKindsApp", String.valueOf(port), "" + N)
            .assertCleanExit();
    Map<String, String> kinds = kinds(result.stdout());
    assertThat(kinds).hasSize(6);
    for (Map.Entry<String, String> kind : kinds.entrySet()) {
      long expected = kind.getKey().equals("refused") ? 0 : N;
      assertThat(counted(result.stdout(), kind.getValue()))
          .as("connects counted for %s (%s); stdout:%n%s", kind.getKey(), kind.getValue(), result)
          .isEqualTo(expected);
    }
    assertThat(result.stderr()).doesNotContain("jdk-socket-connect is off");
    // The bridge is defined in the bootstrap loader, not appended to its class path, which would
    // cost the service its class data sharing.
    assertThat(result.stderr())
        .as("stderr")
        .doesNotContain("bootstrap classpath has been appended")
        .doesNotContain("bootstrap bridge goes on the bootstrap class path");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void offSwitchLeavesTheJdkAlone(Jdk jdk) {
    int port = Http.freePort();
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .agentArgs("prometheus.port=" + port + ",net.churn=off")
            .run(90, "io.faultline.it.agent.app.ConnectKindsApp", String.valueOf(port), "" + N)
            .assertCleanExit();
    assertThat(result.stdout()).contains("connects-done", "metrics-begin", "metrics-end");
    assertThat(result.stdout()).doesNotContain("faultline_net_connects");
  }

  private static Map<String, String> kinds(String stdout) {
    Map<String, String> kinds = new LinkedHashMap<>();
    Matcher m = KIND.matcher(stdout);
    while (m.find()) {
      kinds.put(m.group(1), m.group(2));
    }
    return kinds;
  }

  /** The counter of {@code destination} in the printed metrics, 0 when it has none. */
  static long counted(String stdout, String destination) {
    Matcher m =
        Pattern.compile(
                "faultline_net_connects_(?:connections_)?total\\{destination=\""
                    + Pattern.quote(destination)
                    + "\"[^}]*} (\\S+)")
            .matcher(stdout);
    return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
  }
}
