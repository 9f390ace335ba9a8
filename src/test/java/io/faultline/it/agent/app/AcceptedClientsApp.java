package io.faultline.it.agent.app;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A server that accepts {@code clients} connections from itself (client and server end in one
 * process, as in a network namespace of its own), exchanges a few bytes on each, then reads its
 * agent's endpoint until the agent has swept the accepted connections twice: prints {@code
 * port=<listener>}, the {@code faultline_host_tcp_accepted} lines of {@code /metrics} and the body
 * of {@code /faultline/findings}.
 *
 * <p>Arguments: the agent's endpoint port, clients.
 */
public final class AcceptedClientsApp {

  private AcceptedClientsApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    AgentReady.awaitExport();
    int agentPort = Integer.parseInt(args[0]);
    int n = Integer.parseInt(args[1]);
    InetAddress loopback = InetAddress.getLoopbackAddress();
    List<SocketChannel> ends = new ArrayList<>();
    try (ServerSocketChannel server =
        ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0), 128)) {
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      System.out.println("port=" + port);
      for (int i = 0; i < n; i++) {
        SocketChannel client = SocketChannel.open(server.getLocalAddress());
        SocketChannel accepted = server.accept();
        client.write(ByteBuffer.wrap(new byte[100]));
        accepted.read(ByteBuffer.allocate(100));
        accepted.write(ByteBuffer.wrap(new byte[100]));
        client.read(ByteBuffer.allocate(100));
        ends.add(client);
        ends.add(accepted);
      }
      HttpClient http = HttpClient.newHttpClient();
      String base = "http://127.0.0.1:" + agentPort;
      String metrics = "";
      long deadline = System.nanoTime() + 30_000_000_000L;
      // Two sweeps that saw every connection: the first may have run before the last accept.
      int sweepsSeeingAll = 0;
      while (System.nanoTime() < deadline && sweepsSeeingAll < 2) {
        Thread.sleep(600);
        metrics = get(http, base + "/metrics");
        if (metrics.contains(
            "faultline_host_tcp_accepted_connections{port=\"" + port + "\"} " + n + ".0")) {
          sweepsSeeingAll++;
        }
      }
      for (String line : metrics.split("\n")) {
        if (line.startsWith("faultline_host_tcp_accepted")) {
          System.out.println(line);
        }
      }
      System.out.println("findings=" + get(http, base + "/faultline/findings"));
    } finally {
      for (SocketChannel c : ends) {
        c.close();
      }
    }
  }

  private static String get(HttpClient http, String url) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
