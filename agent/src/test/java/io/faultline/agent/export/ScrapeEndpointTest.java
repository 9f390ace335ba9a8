package io.faultline.agent.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The endpoint's server over real sockets: limits, access rules and headers. */
class ScrapeEndpointTest {

  private static final String METRICS = "# TYPE up gauge\nup 1.0\n";

  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    Collections.reverse(toClose);
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  private static Map<String, ScrapeEndpoint.Route> routes() {
    Map<String, ScrapeEndpoint.Route> routes = new LinkedHashMap<>();
    routes.put(
        "/metrics", new ScrapeEndpoint.Route("text/plain; version=0.0.4", () -> METRICS, false));
    routes.put(
        "/faultline/findings",
        new ScrapeEndpoint.Route("application/json", () -> "{\"findings\":[]}", true));
    routes.put(
        "/",
        new ScrapeEndpoint.Route(
            "text/html; charset=utf-8", () -> "<!DOCTYPE html><p>status</p>", true));
    routes.put(
        "/broken",
        new ScrapeEndpoint.Route(
            "text/plain",
            () -> {
              throw new IllegalStateException("secret detail\nsecond line");
            },
            false));
    return routes;
  }

  private ScrapeEndpoint start(BearerToken token, HttpLoop.Limits limits) throws IOException {
    return start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), token, limits);
  }

  private ScrapeEndpoint start(InetSocketAddress address, BearerToken token, HttpLoop.Limits limits)
      throws IOException {
    ScrapeEndpoint endpoint = ScrapeEndpoint.start(address, routes(), token, limits);
    toClose.add(endpoint);
    return endpoint;
  }

  private Socket open(int port) throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
    toClose.add(socket);
    return socket;
  }

  @Test
  void aHalfSentRequestAndFiftyIdleSocketsDoNotDelayScrapes() throws Exception {
    ScrapeEndpoint endpoint = start(null, HttpLoop.Limits.DEFAULT);
    int port = endpoint.port();
    Socket halfSent = open(port);
    halfSent
        .getOutputStream()
        .write(
            "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                .getBytes(StandardCharsets.US_ASCII));
    for (int i = 0; i < 50; i++) {
      open(port);
    }

    long worstNanos = 0;
    for (int i = 0; i < 30; i++) {
      long start = System.nanoTime();
      RawHttp.Answer answer = RawHttp.get(port, "/metrics");
      long took = System.nanoTime() - start;
      worstNanos = Math.max(worstNanos, took);
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo(METRICS);
      // Far below any scrape timeout and below the 2 s head deadline: the scrape did not wait
      // for the slow clients to be cut.
      assertThat(took / 1_000_000).as("scrape %d took ms", i).isLessThan(1_000);
    }
    System.out.printf(
        "ScrapeEndpointTest: worst of 30 scrapes beside 1 half-sent request and 50 idle"
            + " sockets: %.1f ms%n",
        worstNanos / 1e6);
  }

  @Test
  void connectionsOverTheCapAreClosedAtOnceAndTheCapFreesAgain() throws Exception {
    HttpLoop.Limits limits = new HttpLoop.Limits(30_000, 8192, 8, 10_000, 2);
    ScrapeEndpoint endpoint = start(null, limits);
    int port = endpoint.port();
    List<Socket> idle = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      idle.add(open(port));
    }
    // Each idle socket is surely registered once one of them has been answered... they are not
    // answered; so wait until an extra connection is refused rather than served.
    awaitRefused(port);

    for (Socket s : idle) {
      s.close();
    }
    long deadline = System.nanoTime() + 5_000_000_000L;
    RawHttp.Answer answer = null;
    while (answer == null && System.nanoTime() < deadline) {
      try {
        answer = RawHttp.get(port, "/metrics");
      } catch (IOException refusedStill) {
        Thread.sleep(20);
      }
    }
    assertThat(answer).as("served again once the idle sockets closed").isNotNull();
    assertThat(answer.status()).isEqualTo(200);
  }

  private static void awaitRefused(int port) throws Exception {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (true) {
      try {
        RawHttp.get(port, "/metrics");
      } catch (IOException closed) {
        // closed without an answer: the cap holds
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("a ninth connection was still served with 8 open");
      }
      Thread.sleep(20);
    }
  }

  @Test
  void aDripFeedingClientIsCutAtTheHeadDeadline() throws Exception {
    HttpLoop.Limits limits = new HttpLoop.Limits(500, 8192, 64, 10_000, 2);
    ScrapeEndpoint endpoint = start(null, limits);
    Socket drip = open(endpoint.port());
    OutputStream out = drip.getOutputStream();
    byte[] request =
        ("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + "a".repeat(200))
            .getBytes(StandardCharsets.US_ASCII);
    long start = System.nanoTime();
    long cutMillis = -1;
    for (byte b : request) {
      try {
        out.write(b);
        out.flush();
      } catch (SocketException cut) {
        cutMillis = (System.nanoTime() - start) / 1_000_000;
        break;
      }
      Thread.sleep(20);
    }
    // 200+ bytes at one per 20 ms would take over 4 s; each byte arrived well within any
    // per-read timeout, yet the connection was closed near the 500 ms absolute deadline.
    assertThat(cutMillis).as("cut after ms").isBetween(400L, 3_000L);
    drip.setSoTimeout(2_000);
    try {
      assertThat(drip.getInputStream().read()).isEqualTo(-1);
    } catch (SocketException reset) {
      // a reset is as good as an end: nothing was answered
    }
  }

  @Test
  void anIdleConnectionIsClosedAtTheHeadDeadline() throws Exception {
    HttpLoop.Limits limits = new HttpLoop.Limits(300, 8192, 64, 10_000, 2);
    ScrapeEndpoint endpoint = start(null, limits);
    Socket idle = open(endpoint.port());
    idle.setSoTimeout(5_000);
    long start = System.nanoTime();
    InputStream in = idle.getInputStream();
    assertThat(in.read()).isEqualTo(-1);
    assertThat((System.nanoTime() - start) / 1_000_000).isBetween(200L, 4_000L);
  }

  @Test
  void anIdleServerSleepsUntilAConnectionComes() throws Exception {
    HttpLoop loop =
        HttpLoop.start(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            head -> HttpResponse.text(200, "ok\n"),
            HttpLoop.Limits.DEFAULT);
    toClose.add(loop);
    assertThat(roundsWhileIdle(loop)).isZero(); // a sweep every 50 ms would be a dozen
    try (Socket socket = open(loop.port())) {
      socket.setSoTimeout(5_000);
      socket
          .getOutputStream()
          .write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      assertThat(RawHttp.parse(RawHttp.readAll(socket.getInputStream())).status()).isEqualTo(200);
    }
    assertThat(roundsWhileIdle(loop)).isZero();
  }

  /** The loop's rounds in 600 ms, once what was under way has had 300 ms to finish. */
  private static long roundsWhileIdle(HttpLoop loop) throws InterruptedException {
    Thread.sleep(300);
    long before = loop.rounds();
    Thread.sleep(600);
    return loop.rounds() - before;
  }

  @Test
  void aHeadTooLargeIsRefusedShortWithoutEchoingIt() throws Exception {
    ScrapeEndpoint endpoint = start(null, HttpLoop.Limits.DEFAULT);
    String path = "/" + "x<script>".repeat(100 * 1024 / 9);
    RawHttp.Answer answer;
    try (Socket socket = open(endpoint.port())) {
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      try {
        out.write(
            ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
      } catch (SocketException closedWhileSending) {
        // the server may answer and close before the 100 KB are all sent
      }
      answer = RawHttp.parse(RawHttp.readAll(socket.getInputStream()));
    }
    assertThat(answer.status()).isEqualTo(431);
    assertThat(answer.wireBytes()).isLessThan(1024);
    assertThat(answer.body()).doesNotContain("xx", "<script>");
  }

  @Test
  void notFoundNamesTheRoutesNotThePath() throws Exception {
    ScrapeEndpoint endpoint = start(null, HttpLoop.Limits.DEFAULT);
    RawHttp.Answer answer = RawHttp.get(endpoint.port(), "/<script>" + "y".repeat(4000));
    assertThat(answer.status()).isEqualTo(404);
    assertThat(answer.body()).contains("/metrics").doesNotContain("<script>", "yy");
    assertThat(answer.wireBytes()).isLessThan(1024);
    assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");
  }

  @Test
  void everyAnswerCarriesTheSafetyHeadersAndThePageItsPolicy() throws Exception {
    ScrapeEndpoint endpoint = start(null, HttpLoop.Limits.DEFAULT);
    int port = endpoint.port();
    for (String path : List.of("/metrics", "/faultline/findings", "/", "/nope", "/broken")) {
      RawHttp.Answer answer = RawHttp.get(port, path);
      assertThat(answer.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
      assertThat(answer.header("Cache-Control")).as(path).isEqualTo("no-store");
      assertThat(answer.header("Connection")).as(path).isEqualTo("close");
      assertThat(answer.header("Content-Security-Policy")).as(path).contains("default-src 'none'");
    }
    RawHttp.Answer page = RawHttp.get(port, "/");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
    assertThat(page.header("Content-Security-Policy"))
        .isEqualTo(HttpResponse.PAGE_POLICY)
        .contains("style-src 'unsafe-inline'")
        .doesNotContain("script-src");
    RawHttp.Answer metrics = RawHttp.get(port, "/metrics?name[]=up");
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.header("Content-Length")).isEqualTo(String.valueOf(METRICS.length()));
  }

  @Test
  void aFailingRenderIs500WithoutItsDetail() throws Exception {
    ScrapeEndpoint endpoint = start(null, HttpLoop.Limits.DEFAULT);
    RawHttp.Answer answer = RawHttp.get(endpoint.port(), "/broken");
    assertThat(answer.status()).isEqualTo(500);
    assertThat(answer.body()).doesNotContain("secret", "IllegalState");
  }

  @Test
  void headAndOtherMethods() throws Exception {
    ScrapeEndpoint endpoint = start(null, HttpLoop.Limits.DEFAULT);
    int port = endpoint.port();
    RawHttp.Answer head =
        RawHttp.send(
            InetAddress.getLoopbackAddress(),
            port,
            "HEAD /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assertThat(head.status()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    assertThat(head.header("Content-Length")).isEqualTo(String.valueOf(METRICS.length()));

    RawHttp.Answer post =
        RawHttp.send(
            InetAddress.getLoopbackAddress(),
            port,
            "POST /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");
    assertThat(post.status()).isEqualTo(405);
    assertThat(post.header("Allow")).isEqualTo("GET, HEAD");

    RawHttp.Answer garbage = RawHttp.send(InetAddress.getLoopbackAddress(), port, "hello\r\n\r\n");
    assertThat(garbage.status()).isEqualTo(400);
  }

  @Test
  void overLoopbackOnlyLoopbackHostNamesAreAnswered() throws Exception {
    ScrapeEndpoint endpoint = start(null, HttpLoop.Limits.DEFAULT);
    int port = endpoint.port();
    for (String host :
        List.of("localhost", "localhost:" + port, "127.0.0.1", "[::1]:8080", "LOCALHOST")) {
      assertThat(withHost(port, host).status()).as(host).isEqualTo(200);
    }
    for (String host :
        List.of(
            "evil.example",
            "evil.example:" + port,
            "localhost.evil.example",
            "127.0.0.1.nip.io",
            "localhost:x")) {
      RawHttp.Answer answer = withHost(port, host);
      assertThat(answer.status()).as(host).isEqualTo(421);
      assertThat(answer.body()).doesNotContain("evil", "nip");
    }
    RawHttp.Answer noHost =
        RawHttp.send(InetAddress.getLoopbackAddress(), port, "GET /metrics HTTP/1.1\r\n\r\n");
    assertThat(noHost.status()).isEqualTo(421);
  }

  private static RawHttp.Answer withHost(int port, String host) throws IOException {
    return RawHttp.send(
        InetAddress.getLoopbackAddress(),
        port,
        "GET /metrics HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
  }

  @Test
  void aTokenIsRequiredWhenSet() throws Exception {
    ScrapeEndpoint endpoint = start(BearerToken.of("t0ken-value"), HttpLoop.Limits.DEFAULT);
    int port = endpoint.port();
    RawHttp.Answer none = RawHttp.get(port, "/metrics");
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.header("WWW-Authenticate")).startsWith("Bearer");
    assertThat(none.header("X-Content-Type-Options")).isEqualTo("nosniff");
    assertThat(RawHttp.get(port, "/metrics", "Authorization: Bearer wrong").status())
        .isEqualTo(401);
    assertThat(RawHttp.get(port, "/metrics", "Authorization: Bearer t0ken-valu").status())
        .isEqualTo(401);
    assertThat(RawHttp.get(port, "/metrics", "Authorization: Basic dDBrZW4tdmFsdWU=").status())
        .isEqualTo(401);
    RawHttp.Answer ok = RawHttp.get(port, "/metrics", "Authorization: Bearer t0ken-value");
    assertThat(ok.status()).isEqualTo(200);
    assertThat(ok.body()).isEqualTo(METRICS);
    assertThat(RawHttp.get(port, "/", "authorization: bearer t0ken-value").status()).isEqualTo(200);
  }

  @Test
  void loopbackOnlyPagesAreRefusedToOtherClients() throws Exception {
    InetAddress own = nonLoopbackAddress();
    assumeTrue(own != null, "this host has no non-loopback IPv4 address");
    ScrapeEndpoint endpoint =
        start(new InetSocketAddress("0.0.0.0", 0), null, HttpLoop.Limits.DEFAULT);
    int port = endpoint.port();
    String hostHeader = "Host: " + own.getHostAddress() + ":" + port + "\r\n\r\n";
    RawHttp.Answer metrics = RawHttp.send(own, port, "GET /metrics HTTP/1.1\r\n" + hostHeader);
    assertThat(metrics.status()).isEqualTo(200);
    for (String path : List.of("/faultline/findings", "/")) {
      RawHttp.Answer refused =
          RawHttp.send(own, port, "GET " + path + " HTTP/1.1\r\n" + hostHeader);
      assertThat(refused.status()).as(path).isEqualTo(403);
      assertThat(refused.body()).doesNotContain("findings\":", "status</p>");
    }
    // The same pages over loopback are served.
    assertThat(RawHttp.get(port, "/faultline/findings").status()).isEqualTo(200);
  }

  private static InetAddress nonLoopbackAddress() throws SocketException {
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!nic.isUp() || nic.isLoopback()) {
        continue;
      }
      for (InetAddress a : Collections.list(nic.getInetAddresses())) {
        if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
          return a;
        }
      }
    }
    return null;
  }

  @Test
  void closingFreesThePortAndEndsEveryThread() throws Exception {
    ScrapeEndpoint endpoint =
        ScrapeEndpoint.start(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            routes(),
            null,
            HttpLoop.Limits.DEFAULT);
    int port = endpoint.port();
    Socket idle = open(port);
    assertThat(RawHttp.get(port, "/metrics").status()).isEqualTo(200);
    endpoint.close();

    idle.setSoTimeout(2_000);
    try {
      assertThat(idle.getInputStream().read()).isEqualTo(-1);
    } catch (SocketException reset) {
      // closed by the server either way
    } catch (SocketTimeoutException notClosed) {
      throw new AssertionError("an open connection survived close()", notClosed);
    }
    try (ServerSocket again = new ServerSocket()) {
      again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (liveEndpointThreads() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(liveEndpointThreads()).isZero();
  }

  private static int liveEndpointThreads() {
    AtomicInteger count = new AtomicInteger();
    Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("faultline-http") && t.isAlive())
        .forEach(t -> count.incrementAndGet());
    return count.get();
  }

  @Test
  void everyThreadIsADaemon() throws Exception {
    ScrapeEndpoint endpoint = start(null, HttpLoop.Limits.DEFAULT);
    assertThat(RawHttp.get(endpoint.port(), "/metrics").status()).isEqualTo(200);
    assertThat(Thread.getAllStackTraces().keySet())
        .filteredOn(t -> t.getName().startsWith("faultline-http"))
        .isNotEmpty()
        .allSatisfy(t -> assertThat(t.isDaemon()).as(t.getName()).isTrue());
  }

  @Test
  void anUnresolvableHostIsAnIoException() {
    assertThatThrownBy(() -> ScrapeEndpoint.start("no-such-host.invalid", 0, routes(), null))
        .isInstanceOf(IOException.class);
  }
}
