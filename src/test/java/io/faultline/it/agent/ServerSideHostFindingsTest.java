package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The host doctor's server-side findings in the agent: a small listen backlog is a warning in a
 * process that listens (a broker) and information in one that only connects (every Kafka client),
 * the agent's own endpoint not counting as a listener. {@code doctor.expected-connections} is set
 * far above any host's {@code somaxconn}, so the finding is raised on every machine.
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
      Matcher m = BACKLOG.matcher(body);
      assertThat(m.find()).as("LISTEN_BACKLOG_SMALL in %s", body).isTrue();
      return m.group(1);
    }
  }
}
