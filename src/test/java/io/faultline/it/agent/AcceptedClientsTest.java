package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The broker's side of lost window scaling: the agent reads the TCP_INFO of every connection its
 * process accepted and names the listener whose clients have no window scaling. Run in a network
 * namespace of its own ({@code unshare --net}), once with window scaling turned off there ({@code
 * net.ipv4.tcp_window_scaling=0}: every connection is what a SYN cookie without timestamps makes)
 * and once with it on.
 */
@Timeout(180)
class AcceptedClientsTest {

  private static final int CLIENTS = 12;

  @Test
  void connectionsWithoutWindowScalingAreCountedAndTheListenerNamed() {
    String out = run(false);
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

  @Test
  void withWindowScalingNothingIsRaised() {
    String out = run(true);
    String port = group(out, "port=(\\d+)");
    assertThat(out)
        .contains(
            "faultline_host_tcp_accepted_connections{port=\"" + port + "\"} " + CLIENTS + ".0")
        .contains(
            "faultline_host_tcp_accepted_without_wscale_connections{port=\"" + port + "\"} 0.0");
    assertThat(group(out, "findings=(.*)")).doesNotContain("CLIENTS_WITHOUT_WINDOW_SCALING");
  }

  private static String run(boolean windowScaling) {
    assumeThat(NetworkNamespace.available())
        .as("a fresh network namespace (unshare --net, needs root): " + NetworkNamespace.why())
        .isTrue();
    int agentPort = 19_500 + (windowScaling ? 1 : 0);
    String setUp =
        "ip link set lo up && sysctl -q -w net.ipv4.tcp_window_scaling="
            + (windowScaling ? 1 : 0)
            + " && exec \"$@\"";
    ChildJvm.Result result =
        ChildJvm.on(Jdk.current())
            .prefix("unshare", "--net", "sh", "-c", setUp, "sh")
            .agentArgs("prometheus.port=" + agentPort + ",doctor.clients-interval=300ms")
            .run(
                120,
                "io.faultline.it.agent.app.AcceptedClientsApp",
                String.valueOf(agentPort),
                String.valueOf(CLIENTS))
            .assertCleanExit();
    ChildJvm.save("accepted-clients-wscale-" + windowScaling + ".txt", result.stdout());
    return result.stdout();
  }

  private static String group(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as("%s in:%n%s", regex, text).isTrue();
    return m.group(1);
  }
}
