package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The status page as a person sees it: a running agent's page loaded in headless Chromium (Debian
 * package {@code chromium}), its rendered DOM checked, and a screenshot saved to {@code
 * target/agent-tests/status-page.png}. Skipped, with the reason printed, where Chromium is absent.
 */
class StatusPageBrowserTest {

  private static final List<String> CHROMIUM =
      List.of("/usr/bin/chromium", "/usr/bin/chromium-browser");

  @Test
  void statusPageRendersInHeadlessChromium() throws Exception {
    Path chromium =
        CHROMIUM.stream().map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
    if (chromium == null) {
      System.out.println(
          "StatusPageBrowserTest skipped: no chromium; install Debian's package chromium");
    }
    Assumptions.assumeTrue(
        chromium != null, "chromium is not installed (apt-get install chromium)");
    int port = Http.freePort();
    try (ChildJvm.Running running =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=" + port)
            .start("io.faultline.it.agent.app.WaitingApp")) {
      String url = "http://127.0.0.1:" + port + "/";
      Http.awaitBodyContaining(url, "child-app test", Duration.ofSeconds(30));
      // The host doctor's first run is on the agent's thread; wait for its section to fill.
      for (int i = 0; i < 100 && Http.get(url).body().contains("have not run yet"); i++) {
        Thread.sleep(100);
      }
      Path dir = Files.createDirectories(Path.of("target", "agent-tests"));
      Path screenshot = dir.resolve("status-page.png").toAbsolutePath();
      String dom = chromium(chromium, "--dump-dom", url);
      ChildJvm.save("status-page.html", dom);
      chromium(chromium, "--screenshot=" + screenshot, "--window-size=1280,1400", url);

      assertThat(dom)
          .contains("<h1>Faultline agent ")
          .contains("<h2>Active findings</h2>", "TCP_WINDOW_SCALING_DISABLED", "child-app test")
          .contains("<h2>Broker connections (test section)</h2>", "127.0.0.1:9092")
          .contains("<h2>Host doctor</h2>", "tcp_syncookies")
          .contains("<h2>Configuration</h2>", "prometheus.port = " + port)
          .doesNotContain("<script");
      assertThat(dom.indexOf("Active findings")).isLessThan(dom.indexOf("Broker connections"));
      assertThat(pageWidthAt1280(chromium, Http.get(url).body()))
          .as("the page's width in a 1280 px window (no sideways scrolling)")
          .isLessThanOrEqualTo(1280);
      assertThat(screenshot).isRegularFile();
      assertThat(Files.size(screenshot)).isGreaterThan(10_000);
      running.send("stop");
      running.awaitExit(30).assertCleanExit();
    }
  }

  /**
   * The page's scroll width in a 1280 px wide window. The page has no scripts of its own, so a copy
   * of it with one line of script that writes the width into the DOM is rendered.
   */
  private static int pageWidthAt1280(Path chromium, String page) throws Exception {
    String measured =
        page.replace(
            "</body>",
            "<script>document.body.setAttribute('data-scroll-width',"
                + "document.documentElement.scrollWidth)</script></body>");
    Path copy = Files.createTempFile("faultline-status-page", ".html");
    Files.writeString(copy, measured, StandardCharsets.UTF_8);
    String dom =
        chromium(chromium, "--window-size=1280,1400", "--dump-dom", copy.toUri().toString());
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("data-scroll-width=\"(\\d+)\"").matcher(dom);
    assertThat(m.find()).as("the measuring script ran: %s", dom).isTrue();
    return Integer.parseInt(m.group(1));
  }

  private static String chromium(Path chromium, String... args) throws Exception {
    Path profile = Files.createTempDirectory("faultline-chromium");
    List<String> command =
        new java.util.ArrayList<>(
            List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--user-data-dir=" + profile));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
    return out;
  }
}
