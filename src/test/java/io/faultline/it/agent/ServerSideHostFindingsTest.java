package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host doctor's server-side findings in the agent: a small listen backlog is a warning in a
 * process that listens (a broker) and information in one that only connects (every Kafka client),
 * the agent's own endpoint not counting as a listener. {@code doctor.expected-connections} is set
 * far above any host's {@code somaxconn}, so the finding is raised on every machine. A process that
 * starts listening after the first run is warned when the agent looks again.
 */
@Timeout(180)
class ServerSideHostFindingsTest {

  private static final Pattern BACKLOG =
      Pattern.compile("\\{\"id\":\"LISTEN_BACKLOG_SMALL\",\"severity\":\"([A-Z]+)\"");

  @Test
  void aClientOnlyProcessIsToldForInformation() throws Exception {
    assertThat(backlogSeverity("io.faultline.it.agent.app.WaitingApp")).isEqualTo("INFO");
  }

  @Test
  void aProcessThatListensIsWarned() throws Exception {
    assertThat(backlogSeverity("io.faultline.it.agent.app.ListeningApp")).isEqualTo("WARNING");
  }

  @Test
  void aProcessThatStartsListeningAfterTheFirstRunIsWarnedAtTheSecondLook(@TempDir Path dir)
      throws Exception {
    Path listenNow = dir.resolve("listen-now");
    int port = Http.freePort();
    String findings = "http://127.0.0.1:" + port + "/faultline/findings";
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .option("-Dlistening.when=" + listenNow)
            .agentArgs("prometheus.port=" + port + ",doctor.expected-connections=100000000");
    try (ChildJvm.Running running = child.start("io.faultline.it.agent.app.ListeningApp")) {
      String first =
          Http.awaitBodyContaining(findings, "LISTEN_BACKLOG_SMALL", Duration.ofSeconds(60)).body();
      assertThat(severity(first)).isEqualTo("INFO");
      Files.createFile(listenNow);
      // The second look comes half a minute after the first run.
      String later =
          Http.awaitBodyContaining(
                  findings,
                  "\"LISTEN_BACKLOG_SMALL\",\"severity\":\"WARNING\"",
                  Duration.ofSeconds(60))
              .body();
      assertThat(severity(later)).isEqualTo("WARNING");
      running.send("stop");
      running.awaitExit(30).assertCleanExit();
    }
  }

  private static String backlogSeverity(String mainClass) throws Exception {
    int port = Http.freePort();
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=" + port + ",doctor.expected-connections=100000000");
    try (ChildJvm.Running running = child.start(mainClass)) {
      String body =
          Http.awaitBodyContaining(
                  "http://127.0.0.1:" + port + "/faultline/findings",
                  "LISTEN_BACKLOG_SMALL",
                  Duration.ofSeconds(60))
              .body();
      running.send("stop");
      running.awaitExit(30).assertCleanExit();
      return severity(body);
    }
  }

  private static String severity(String findings) {
    Matcher m = BACKLOG.matcher(findings);
    assertThat(m.find()).as("LISTEN_BACKLOG_SMALL in %s", findings).isTrue();
    return m.group(1);
  }
}
