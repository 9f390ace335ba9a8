package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent's endpoint in a real child JVM on the built agent jar: slow and idle clients do not
 * delay a scrape, the token and the page switches hold, the {@code Host} check, the headers, and a
 * token file that cannot be read keeps the endpoint closed while the application runs.
 */
class EndpointSafetyTest {

  private static final String TOKEN = "it-token-5f1c0e";

  @TempDir Path dir;

  static Stream<Jdk> jdks() {
    return Jdk.available().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void slowClientsDoNotDelayScrapesAndTheEndpointShowsOnlyWhatItIsTold(Jdk jdk) throws Exception {
    Path tokenFile = Files.writeString(dir.resolve("token"), TOKEN + "\n");
    int port = Http.freePort();
    try (ChildJvm.Running running =
        ChildJvm.on(jdk)
            .agentArgs(
                "prometheus.port="
                    + port
                    + ",prometheus.findings=off,prometheus.token-file="
                    + tokenFile)
            .start("io.faultline.it.agent.app.WaitingApp")) {
      Answer first = awaitOk(port, running);
      assertThat(first.body()).contains("# HELP faultline_findings_raised");

      assertTokenRequired(port);
      assertPagesAsSwitched(port);
      assertHostChecked(port);
      assertHugePathAnsweredShort(port);
      long[] alone = scrapes(port);
      long[] beside = assertScrapesBesideSlowClients(port);
      System.out.printf(
          "EndpointSafetyTest (%s): 30 scrapes alone: worst %s; 30 scrapes beside 1 half-sent"
              + " request and 50 idle sockets: worst %s%n",
          jdk.name(), summary(alone), summary(beside));

      running.send("stop");
      ChildJvm.Result result = running.awaitExit(30).assertCleanExit();
      assertThat(result.stdout()).contains("ready port=" + port, "bye");
      assertThat(result.stderr()).doesNotContain("faultline: ERROR", TOKEN);
    }
  }

  private static void assertTokenRequired(int port) throws IOException {
    Answer none = get(port, "/metrics", "127.0.0.1:" + port, null);
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.head()).contains("WWW-Authenticate: Bearer");
    assertThat(get(port, "/metrics", "127.0.0.1:" + port, "wrong").status()).isEqualTo(401);
    assertThat(get(port, "/", "127.0.0.1:" + port, null).status()).isEqualTo(401);
  }

  private static void assertPagesAsSwitched(int port) throws IOException {
    String host = "localhost:" + port;
    assertThat(get(port, "/faultline/findings", host, TOKEN).status()).isEqualTo(404);
    Answer page = get(port, "/", host, TOKEN);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.body()).contains("<h2>Configuration</h2>").doesNotContain(TOKEN);
    assertThat(page.head())
        .contains("X-Content-Type-Options: nosniff")
        .contains("Cache-Control: no-store")
        .contains("Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'");
    Answer agent = get(port, "/faultline/agent", host, TOKEN);
    assertThat(agent.status()).isEqualTo(200);
    assertThat(agent.head()).contains("X-Content-Type-Options: nosniff", "Cache-Control: no-store");
    Answer metrics = get(port, "/metrics", host, TOKEN);
    assertThat(metrics.head()).contains("X-Content-Type-Options: nosniff");
  }

  private static void assertHostChecked(int port) throws IOException {
    Answer rebound = get(port, "/metrics", "rebind.example:" + port, TOKEN);
    assertThat(rebound.status()).isEqualTo(421);
    assertThat(rebound.body()).doesNotContain("rebind");
    assertThat(get(port, "/metrics", "[::1]:" + port, TOKEN).status()).isEqualTo(200);
  }

  private static void assertHugePathAnsweredShort(int port) throws IOException {
    String path = "/" + "p".repeat(100 * 1024);
    Answer answer = get(port, path, "127.0.0.1:" + port, TOKEN);
    assertThat(answer.status()).isIn(404, 431);
    assertThat(answer.wireBytes()).isLessThan(1024);
    assertThat(answer.body()).doesNotContain("ppp");
  }

  /** The worst time, which scrape it was, and the median. */
  private static String summary(long[] nanos) {
    int worst = 0;
    for (int i = 1; i < nanos.length; i++) {
      if (nanos[i] > nanos[worst]) {
        worst = i;
      }
    }
    long[] sorted = nanos.clone();
    java.util.Arrays.sort(sorted);
    return String.format(
        "%.1f ms (scrape %d), median %.1f ms",
        nanos[worst] / 1e6, worst + 1, sorted[sorted.length / 2] / 1e6);
  }

  /** 30 scrapes in a row, each asserted, with their times. */
  private static long[] scrapes(int port) throws IOException {
    long[] took = new long[30];
    for (int i = 0; i < took.length; i++) {
      long start = System.nanoTime();
      Answer answer = get(port, "/metrics", "127.0.0.1:" + port, TOKEN);
      took[i] = System.nanoTime() - start;
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body()).contains("# HELP faultline_findings_raised");
    }
    return took;
  }

  private static long[] assertScrapesBesideSlowClients(int port) throws Exception {
    List<Socket> slow = new ArrayList<>();
    try {
      Socket halfSent = new Socket(InetAddress.getLoopbackAddress(), port);
      slow.add(halfSent);
      halfSent
          .getOutputStream()
          .write(
              ("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TOKEN)
                  .getBytes(StandardCharsets.US_ASCII));
      for (int i = 0; i < 50; i++) {
        slow.add(new Socket(InetAddress.getLoopbackAddress(), port));
      }
      long[] took = scrapes(port);
      for (int i = 0; i < took.length; i++) {
        // Far below a scrape timeout, and below the 2 s head deadline at which the slow
        // clients are cut: the scrape did not wait for them.
        assertThat(took[i] / 1_000_000).as("scrape %d, ms", i + 1).isLessThan(1_000);
      }
      return took;
    } finally {
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void aTokenFileThatCannotBeReadKeepsTheEndpointClosedAndTheApplicationRuns() throws Exception {
    int port = Http.freePort();
    Path missing = dir.resolve("no-such-token");
    try (ChildJvm.Running running =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=" + port + ",prometheus.token-file=" + missing)
            .start("io.faultline.it.agent.app.WaitingApp")) {
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60).assertCleanExit();
      assertThat(result.stdout()).contains("ready port=none", "bye");
      assertThat(result.stderr())
          .contains(
              "faultline: ERROR prometheus.token-file (agent argument): cannot read the token file",
              "The endpoint is not started");
    }
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      throw new AssertionError("the endpoint's port answered after a bad token file");
    } catch (ConnectException expected) {
      // nothing listens: closed, not open
    }
  }

  /** Waits until {@code /metrics} answers 200 with the token. */
  private static Answer awaitOk(int port, ChildJvm.Running running) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    Exception last = null;
    while (System.nanoTime() < deadline && running.isAlive()) {
      try {
        Answer answer = get(port, "/metrics", "127.0.0.1:" + port, TOKEN);
        if (answer.status() == 200) {
          return answer;
        }
        last = new IOException("HTTP " + answer.status());
      } catch (IOException e) {
        last = e;
      }
      Thread.sleep(100);
    }
    running.send("stop");
    ChildJvm.Result result = running.awaitExit(30);
    throw new AssertionError(
        "the endpoint did not serve; stdout:\n" + result.stdout() + "\nstderr:\n" + result.stderr(),
        last);
  }

  /** One answer read to the end (the endpoint closes every connection). */
  record Answer(int status, String head, String body, int wireBytes) {}

  private static Answer get(int port, String path, String host, String token) throws IOException {
    String request =
        "GET "
            + path
            + " HTTP/1.1\r\nHost: "
            + host
            + "\r\n"
            + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
            + "\r\n";
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      try {
        out.write(request.getBytes(StandardCharsets.US_ASCII));
      } catch (SocketException closedWhileSending) {
        // an over-long request may be answered and closed before it is all sent
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      InputStream in = socket.getInputStream();
      byte[] buffer = new byte[8192];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        bytes.write(buffer, 0, n);
      }
      String text = bytes.toString(StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      if (end < 0) {
        throw new IOException("no complete answer (" + bytes.size() + " bytes)");
      }
      String head = text.substring(0, end);
      int status = Integer.parseInt(head.split(" ", 3)[1]);
      return new Answer(status, head, text.substring(end + 4), bytes.size());
    }
  }
}
