package io.faultline.it.agent.app;

import io.faultline.agent.AgentRuntime;
import io.faultline.agent.export.HtmlWriter;
import io.faultline.agent.export.StatusSection;
import io.faultline.core.finding.Finding;
import io.faultline.core.host.HostFindingTypes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * An application that stays up until its standard input gets a line. Each argument is a class to
 * load first (e.g. kafka-clients' and jOOQ's, to prove they load beside the agent). With the agent,
 * it raises a test finding and contributes a status section, as kafka-guard will, then prints
 * {@code ready port=<endpoint port>}.
 */
public final class WaitingApp {

  private WaitingApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    for (String className : args) {
      System.out.println("loaded " + Class.forName(className).getName());
    }
    String port =
        AgentRuntime.current()
            .map(
                runtime -> {
                  runtime
                      .findings()
                      .raise(
                          Finding.of(HostFindingTypes.TCP_WINDOW_SCALING_DISABLED, "child-app test")
                              .message("raised by the test application")
                              .evidence("window_scaling", 0)
                              .build());
                  runtime.statusPage().add(new BrokerConnectionsDemo());
                  for (int i = 0; i < 200 && !runtime.exportStarted(); i++) {
                    sleep(50);
                  }
                  return runtime.endpointPort().map(String::valueOf).orElse("none");
                })
            .orElse("no-agent");
    System.out.println("ready port=" + port);
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    System.out.println("bye");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A section shaped like the one kafka-guard will contribute. */
  static final class BrokerConnectionsDemo implements StatusSection {
    @Override
    public String title() {
      return "Broker connections (test section)";
    }

    @Override
    public int order() {
      return 20;
    }

    @Override
    public void render(HtmlWriter html) {
      html.table(
          List.of("Node", "Address", "Window scaling", "RTT"),
          List.of(List.of("1", "127.0.0.1:9092", "on <script>", "0.2 ms")));
    }
  }
}
