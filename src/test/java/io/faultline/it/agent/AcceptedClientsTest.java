package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The broker's side of lost window scaling: the agent reads the TCP_INFO of every connection its
 * process accepted and names the listener whose clients have no window scaling. Run in a network
 * namespace of its own ({@code unshare --net}), once with window scaling turned off there ({@code
 * net.ipv4.tcp_window_scaling=0}: every connection is what a SYN cookie without timestamps makes)
 * and once with it on; on each JDK of the matrix, so both native routes of the sweep's {@code
 * sock_diag} dump are used (the nested JNA before JDK 22, the FFM module from 22), and no sweep
 * fell back to one TCP_INFO per connection.
 */
@Timeout(180)
class AcceptedClientsTest {

  private static final int CLIENTS = 12;

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void connectionsWithoutWindowScalingAreCountedAndTheListenerNamed(Jdk jdk) {
    String out = run(jdk, false);
    String port = group(out, "port=(\\d+)");
    assertThat(out)
        .contains(
            "faultline_host_tcp_accepted_connections{port=\"" + port + "\"} " + CLIENTS + ".0")
        .contains(
            "faultline_host_tcp_accepted_without_wscale_connections{port=\""
                + port
                + "\"} "
                + CLIENTS
                + ".0");
    String findings = group(out, "findings=(.*)");
    assertThat(findings)
        .contains("\"id\":\"CLIENTS_WITHOUT_WINDOW_SCALING\"", "\"subject\":\"port " + port + "\"")
        .contains(CLIENTS + " of " + CLIENTS + " client connections accepted on port " + port)
        .contains("from 127.0.0.1 (" + CLIENTS + ")");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void withWindowScalingNothingIsRaised(Jdk jdk) {
    String out = run(jdk, true);
    String port = group(out, "port=(\\d+)");
    assertThat(out)
        .contains(
            "faultline_host_tcp_accepted_connections{port=\"" + port + "\"} " + CLIENTS + ".0")
        .contains(
            "faultline_host_tcp_accepted_without_wscale_connections{port=\"" + port + "\"} 0.0");
    assertThat(group(out, "findings=(.*)")).doesNotContain("CLIENTS_WITHOUT_WINDOW_SCALING");
  }

  private static String run(Jdk jdk, boolean windowScaling) {
    jdk.assumeInstalled();
    assumeThat(NetworkNamespace.available())
        .as("a fresh network namespace (unshare --net, needs root): " + NetworkNamespace.why())
        .isTrue();
    int agentPort = 19_500 + (windowScaling ? 1 : 0);
    String setUp =
        "ip link set lo up && sysctl -q -w net.ipv4.tcp_window_scaling="
            + (windowScaling ? 1 : 0)
            + " && exec \"$@\"";
    ChildJvm.Result result =
        ChildJvm.on(jdk)
            .prefix("unshare", "--net", "sh", "-c", setUp, "sh")
            .agentArgs("prometheus.port=" + agentPort + ",doctor.clients-interval=300ms")
            .run(
                120,
                "io.faultline.it.agent.app.AcceptedClientsApp",
                String.valueOf(agentPort),
                String.valueOf(CLIENTS))
            .assertCleanExit();
    ChildJvm.save("accepted-clients-" + jdk + "-wscale-" + windowScaling + ".txt", result.stdout());
    // Every sweep read the connections in one sock_diag dump.
    assertThat(result.stdout()).contains("faultline_host_tcp_accepted_fallback_sweeps_total 0.0");
    return result.stdout();
  }

  private static String group(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as("%s in:%n%s", regex, text).isTrue();
    return m.group(1);
  }
}
