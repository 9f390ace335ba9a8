package io.faultline.it.agent.app;

import io.faultline.agent.AgentRuntime;
import io.faultline.agent.export.HtmlWriter;
import io.faultline.agent.export.StatusSection;
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
    String port = "no-agent";
    AgentRuntime runtime = awaitRuntime();
    if (runtime != null) {
      raiseTestFinding(runtime);
      runtime.statusPage().add(new BrokerConnectionsDemo());
      for (int i = 0; i < 600 && !runtime.exportStarted(); i++) {
        sleep(50);
      }
      port = runtime.endpointPort().map(String::valueOf).orElse("none");
    }
    System.out.println("ready port=" + port);
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    System.out.println("bye");
  }

  /** The agent's runtime once it is installed (it starts beside main); null without an agent. */
  private static AgentRuntime awaitRuntime() {
    boolean attached =
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .anyMatch(a -> a.startsWith("-javaagent:") && a.contains("faultline-agent"));
    for (int i = 0; i < 600; i++) {
      AgentRuntime runtime = AgentRuntime.current().orElse(null);
      if (runtime != null && runtime.isInstalled()) {
        return runtime;
      }
      if (runtime == null && !attached) {
        return null;
      }
      sleep(50);
    }
    return AgentRuntime.current().orElse(null);
  }

  /**
   * {@code runtime.findings().raise(Finding.of(TCP_WINDOW_SCALING_DISABLED, "child-app test")...)}
   * through the agent's relocated copy of core ({@code io.faultline.shaded.core}), which this
   * class, compiled against the plain libraries, can only reach by name.
   */
  private static void raiseTestFinding(AgentRuntime runtime) throws Exception {
    String core = "io.faultline.shaded.core.finding.";
    Object findings = AgentRuntime.class.getMethod("findings").invoke(runtime);
    Class<?> findingType = Class.forName(core + "FindingType");
    Object type =
        Class.forName("io.faultline.shaded.core.host.HostFindingTypes")
            .getField("TCP_WINDOW_SCALING_DISABLED")
            .get(null);
    Object builder =
        Class.forName(core + "Finding")
            .getMethod("of", findingType, String.class)
            .invoke(null, type, "child-app test");
    builder =
        builder
            .getClass()
            .getMethod("message", String.class)
            .invoke(builder, "raised by the test application");
    builder =
        builder
            .getClass()
            .getMethod("evidence", String.class, Object.class)
            .invoke(builder, "window_scaling", 0);
    Object finding = builder.getClass().getMethod("build").invoke(builder);
    findings.getClass().getMethod("raise", finding.getClass()).invoke(findings, finding);
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
