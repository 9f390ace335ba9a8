package io.faultline.it.agent.app;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens {@code N} loopback connections in each way the JDK connects, each way to a listener of its
 * own, plus connects that fail, then prints the agent's {@code faultline_net_connects} lines from
 * its own endpoint: {@code kind <name> 127.0.0.1:<port>} per way, then the metric lines between
 * {@code metrics-begin} and {@code metrics-end}. Args: the agent's endpoint port (0: print no
 * metrics), N.
 */
public final class ConnectKindsApp {

  private ConnectKindsApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    // What the test measures starts with the first call: not before the agent has woven it.
    AgentReady.awaitExport();
    int endpoint = Integer.parseInt(args[0]);
    int n = Integer.parseInt(args[1]);
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    List<ServerSocket> servers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      servers.add(acceptingServer(loopback));
    }
    InetSocketAddress socketConnect = (InetSocketAddress) servers.get(0).getLocalSocketAddress();
    InetSocketAddress socketConstructor =
        (InetSocketAddress) servers.get(1).getLocalSocketAddress();
    InetSocketAddress channelBlocking = (InetSocketAddress) servers.get(2).getLocalSocketAddress();
    InetSocketAddress channelNonBlocking =
        (InetSocketAddress) servers.get(3).getLocalSocketAddress();
    InetSocketAddress channelAdaptor = (InetSocketAddress) servers.get(4).getLocalSocketAddress();
    print("socket-connect", socketConnect);
    print("socket-constructor", socketConstructor);
    print("channel-blocking", channelBlocking);
    print("channel-nonblocking", channelNonBlocking);
    print("channel-adaptor", channelAdaptor);

    for (int i = 0; i < n; i++) {
      try (Socket s = new Socket()) {
        s.connect(socketConnect, 5000);
      }
      try (Socket s = new Socket(socketConstructor.getAddress(), socketConstructor.getPort())) {
        s.getOutputStream().flush();
      }
      try (SocketChannel c = SocketChannel.open(channelBlocking)) {
        c.finishConnect(); // already connected: must not count again
      }
      try (SocketChannel c = SocketChannel.open();
          Selector selector = Selector.open()) {
        c.configureBlocking(false);
        if (!c.connect(channelNonBlocking)) {
          c.register(selector, SelectionKey.OP_CONNECT);
          while (!c.finishConnect()) {
            selector.select(1000);
          }
        }
        c.finishConnect(); // completed: must not count again
      }
      try (SocketChannel c = SocketChannel.open()) {
        c.socket().connect(channelAdaptor, 5000);
      }
    }
    // Connects that fail are no new connections.
    int closedPort;
    try (ServerSocket probe = new ServerSocket(0, 1, loopback)) {
      closedPort = probe.getLocalPort();
    }
    InetSocketAddress refused = new InetSocketAddress(loopback, closedPort);
    print("refused", refused);
    for (int i = 0; i < 3; i++) {
      try (Socket s = new Socket()) {
        s.connect(refused, 1000);
        throw new IllegalStateException("connected to a closed port");
      } catch (ConnectException expected) {
        // the point
      }
      try (SocketChannel c = SocketChannel.open()) {
        c.connect(refused);
        throw new IllegalStateException("connected to a closed port");
      } catch (ConnectException expected) {
        // the point
      }
    }
    System.out.println("connects-done");
    if (endpoint > 0) {
      // Counters appear once the churn monitor's next round registered them.
      Thread.sleep(1500);
      System.out.println("metrics-begin");
      for (String line : get("http://127.0.0.1:" + endpoint + "/metrics").split("\n")) {
        if (line.startsWith("faultline_net_connects")) {
          System.out.println(line);
        }
      }
      System.out.println("metrics-end");
    }
    for (ServerSocket server : servers) {
      server.close();
    }
  }

  /** A loopback server whose daemon thread accepts every connection and reads it to its end. */
  static ServerSocket acceptingServer(InetAddress loopback) throws IOException {
    ServerSocket server = new ServerSocket(0, 200, loopback);
    Thread acceptor =
        new Thread(
            () -> {
              while (true) {
                try (Socket accepted = server.accept()) {
                  accepted.getInputStream().read();
                } catch (IOException e) {
                  return;
                }
              }
            });
    acceptor.setDaemon(true);
    acceptor.start();
    return server;
  }

  private static void print(String kind, InetSocketAddress address) {
    System.out.println("kind " + kind + " 127.0.0.1:" + address.getPort());
  }

  static String get(String url) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
    try (InputStream in = connection.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      connection.disconnect();
    }
  }
}
