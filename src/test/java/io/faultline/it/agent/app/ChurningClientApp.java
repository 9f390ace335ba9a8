package io.faultline.it.agent.app;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Elastic Beanstalk port exhaustion in miniature: two JDK {@code HttpServer}s on loopback; one
 * client opens a new connection per request (a plain {@code Socket}, closed once the response is
 * in) at a steady rate, another ({@code java.net.http.HttpClient}) keeps one connection alive
 * beside it. Reads its own agent's endpoint and prints {@code churn <host:port>}, {@code keepalive
 * <host:port>}, {@code requests <churn> <keepalive>}, {@code timewait-before/after <n>} (the
 * agent's {@code faultline_host_tcp_time_wait} gauge, from this network namespace's sockstat),
 * {@code tcp-states {STATE=n, ...}} (this namespace's sockets by state, after the churn), {@code
 * findings-during <json>} each second of the churn, then (2.5 s after it) the findings JSON and the
 * {@code faultline_net_connect*} lines between {@code report-begin} and {@code report-end}. Args:
 * the agent's endpoint port, seconds to churn, requests per second.
 */
public final class ChurningClientApp {

  private static final java.time.Duration IO_TIMEOUT = java.time.Duration.ofSeconds(5);

  private static final Pattern TIME_WAIT =
      Pattern.compile("(?m)^faultline_host_tcp_time_wait\\S* (\\S+)$");

  private ChurningClientApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.await();
    int endpoint = Integer.parseInt(args[0]);
    int seconds = Integer.parseInt(args[1]);
    int perSecond = Integer.parseInt(args[2]);
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    String agent = "http://127.0.0.1:" + endpoint;
    // The agent opens its endpoint on a background thread after premain: on a busy machine main
    // can get here first (seen on JDK 25 as "Connection refused").
    awaitEndpoint(agent);
    HttpServer churned = server(loopback);
    HttpServer keptAlive = server(loopback);
    try {
      churn(agent, churned, keptAlive, seconds, perSecond);
    } finally {
      // The servers' dispatcher threads are not daemons: left running after a failure, they would
      // keep this JVM alive until the test gives up, hiding the failure's cause.
      churned.stop(0);
      keptAlive.stop(0);
    }
  }

  private static void churn(
      String agent, HttpServer churned, HttpServer keptAlive, int seconds, int perSecond)
      throws IOException, InterruptedException {
    String keepAliveUrl = "http://127.0.0.1:" + keptAlive.getAddress().getPort() + "/";
    System.out.println("churn 127.0.0.1:" + churned.getAddress().getPort());
    System.out.println("keepalive 127.0.0.1:" + keptAlive.getAddress().getPort());
    System.out.println("timewait-before " + timeWait(agent));

    HttpClient keepAlive = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest keepAliveRequest =
        HttpRequest.newBuilder(URI.create(keepAliveUrl)).timeout(IO_TIMEOUT).build();
    long periodNanos = TimeUnit.SECONDS.toNanos(1) / perSecond;
    long start = System.nanoTime();
    long end = start + TimeUnit.SECONDS.toNanos(seconds);
    long next = start;
    int churnRequests = 0;
    int keepAliveRequests = 0;
    long nextPoll = start + TimeUnit.SECONDS.toNanos(1);
    while (System.nanoTime() < end) {
      if (System.nanoTime() >= nextPoll) {
        // The finding holds while the churn lasts; read it then.
        System.out.println("findings-during " + get(agent + "/faultline/findings"));
        nextPoll += TimeUnit.SECONDS.toNanos(1);
      }
      closeAfterOneRequest(churned.getAddress());
      churnRequests++;
      if (churnRequests % 5 == 0) {
        HttpResponse<String> response =
            keepAlive.send(keepAliveRequest, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
          throw new IllegalStateException("keep-alive request: HTTP " + response.statusCode());
        }
        keepAliveRequests++;
      }
      next += periodNanos;
      long sleep = next - System.nanoTime();
      if (sleep > 0) {
        TimeUnit.NANOSECONDS.sleep(sleep);
      }
    }
    System.out.println("requests " + churnRequests + " " + keepAliveRequests);
    // Two more churn rounds: the finding clears once the rate is down.
    Thread.sleep(2500);
    System.out.println("timewait-after " + timeWait(agent));
    System.out.println("tcp-states " + tcpStates());
    System.out.println("report-begin");
    System.out.println(get(agent + "/faultline/findings"));
    for (String line : get(agent + "/metrics").split("\n")) {
      if (line.startsWith("faultline_net_connect")) {
        System.out.println(line);
      }
    }
    System.out.println("report-end");
  }

  /** Waits (at most 30 s) until the agent's endpoint accepts connections. */
  private static void awaitEndpoint(String agent) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        get(agent + "/metrics");
        return;
      } catch (java.net.ConnectException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  private static HttpServer server(InetAddress address) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(address, 0), 200);
    server.createContext(
        "/",
        exchange -> {
          byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.setExecutor(Executors.newFixedThreadPool(2, r -> daemon(r)));
    server.start();
    return server;
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r);
    t.setDaemon(true);
    return t;
  }

  /**
   * One request on a connection of its own, closed by this side once the response is in, as the
   * proxy of the Elastic Beanstalk port exhaustion did: the socket then waits in TIME_WAIT on this
   * side. (An {@code HttpURLConnection} with {@code Connection: close} leaves none: the JDK
   * server's close resets.)
   */
  private static void closeAfterOneRequest(InetSocketAddress server) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(server, (int) IO_TIMEOUT.toMillis());
      // Every wait is bounded: a stall fails the run with its cause instead of hanging it.
      socket.setSoTimeout((int) IO_TIMEOUT.toMillis());
      socket
          .getOutputStream()
          .write(
              ("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort() + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      StringBuilder response = new StringBuilder();
      byte[] buffer = new byte[1024];
      while (!response.toString().endsWith("\r\n\r\nok")) {
        int n = in.read(buffer);
        if (n < 0) {
          throw new IOException("the server closed before its response was complete: " + response);
        }
        response.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
      }
    }
  }

  /**
   * This namespace's TCP sockets by state, from {@code /proc/net/tcp} and {@code tcp6}: when the
   * TIME_WAIT count falls short, says where the missing connections are.
   */
  private static String tcpStates() throws IOException {
    String[] names = {
      "?",
      "ESTABLISHED",
      "SYN_SENT",
      "SYN_RECV",
      "FIN_WAIT1",
      "FIN_WAIT2",
      "TIME_WAIT",
      "CLOSE",
      "CLOSE_WAIT",
      "LAST_ACK",
      "LISTEN",
      "CLOSING"
    };
    Map<String, Integer> counts = new TreeMap<>();
    for (String file : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      Path path = Path.of(file);
      if (!Files.isReadable(path)) {
        continue;
      }
      for (String line : Files.readAllLines(path)) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 3 && f[3].matches("[0-9A-F]{2}")) {
          int state = Integer.parseInt(f[3], 16);
          counts.merge(state < names.length ? names[state] : f[3], 1, Integer::sum);
        }
      }
    }
    return counts.toString();
  }

  private static long timeWait(String agent) throws IOException {
    Matcher m = TIME_WAIT.matcher(get(agent + "/metrics"));
    return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
  }

  private static String get(String url) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
    connection.setConnectTimeout((int) IO_TIMEOUT.toMillis());
    connection.setReadTimeout((int) IO_TIMEOUT.toMillis());
    try (InputStream in = connection.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }
}
