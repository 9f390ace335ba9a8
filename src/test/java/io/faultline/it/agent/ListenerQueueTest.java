package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent follows the accept queue of its host process's listeners from their listening sockets:
 * a server with a backlog of 3 that accepts nobody has its queue filled by connections, the gauges
 * show depth and limit for that port, {@code LISTENER_QUEUE_FULL} names it, and once the server
 * accepts the queue drains and the finding clears. The agent's own endpoint is not followed.
 */
@Timeout(180)
class ListenerQueueTest {

  private static final String QUEUE = "faultline_host_tcp_listener_queue_connections";
  private static final String LIMIT = "faultline_host_tcp_listener_queue_limit_connections";

  @Test
  void aFullAcceptQueueIsSeenNamedAndClearedWhenDrained() throws Exception {
    int agentPort = Http.freePort();
    Path portFile = Files.createTempFile("backlog-app", ".port");
    Files.delete(portFile);
    ChildJvm child =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=" + agentPort + ",doctor.listener-interval=200ms");
    List<SocketChannel> clients = new ArrayList<>();
    try (ChildJvm.Running running =
        child.start("io.faultline.it.agent.app.BacklogApp", "3", portFile.toString())) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!Files.exists(portFile) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      String port = Files.readString(portFile).strip();
      Map<String, String> listener = Map.of("port", port);
      StartupChecks.awaitMetrics(
          agentPort,
          m -> m.sum(LIMIT, listener) == 3,
          "the listener's limit (its backlog)",
          Duration.ofSeconds(60));

      InetSocketAddress address =
          new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(port));
      for (int i = 0; i < 3; i++) {
        clients.add(SocketChannel.open(address));
      }
      PrometheusText full =
          StartupChecks.awaitMetrics(
              agentPort,
              m -> m.sum(QUEUE, listener) == 3,
              "three connections waiting in the queue",
              Duration.ofSeconds(30));
      assertThat(full.sum(QUEUE, Map.of("port", Integer.toString(agentPort))))
          .as("the agent's own endpoint is not followed")
          .isZero();
      String findings =
          Http.awaitBodyContaining(
                  "http://127.0.0.1:" + agentPort + "/faultline/findings",
                  "\"subject\":\"port " + port + "\"",
                  Duration.ofSeconds(30))
              .body();
      assertThat(findings).contains("\"id\":\"LISTENER_QUEUE_FULL\"");

      running.send("accept");
      StartupChecks.awaitMetrics(
          agentPort, m -> m.sum(QUEUE, listener) == 0, "the queue drained", Duration.ofSeconds(30));
      Duration waited = Duration.ZERO;
      String after = findings;
      while (after.contains("LISTENER_QUEUE_FULL")
          && waited.compareTo(Duration.ofSeconds(30)) < 0) {
        Thread.sleep(200);
        waited = waited.plusMillis(200);
        after = Http.get("http://127.0.0.1:" + agentPort + "/faultline/findings").body();
      }
      assertThat(after).as("cleared once drained").doesNotContain("LISTENER_QUEUE_FULL");
      running.send("stop");
      running.awaitExit(30).assertCleanExit();
    } finally {
      for (SocketChannel c : clients) {
        c.close();
      }
    }
  }
}
