package io.faultline.it.agent.app;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * New destinations for the agent's connection-churn counter: a server socket on every loopback
 * address of this host, and connections to addresses of the 127.0.0.0/8 range never used before
 * (127.1.x.y), one each, closed at once. Never leaves the machine.
 */
final class Destinations implements AutoCloseable {

  private final ServerSocket server;
  private int next;

  Destinations() {
    try {
      server = new ServerSocket();
      server.bind(new InetSocketAddress("0.0.0.0", 0), 64);
    } catch (IOException e) {
      throw new IllegalStateException("no listening socket for the churn destinations", e);
    }
    Thread accept = new Thread(this::accept, "chaos-destinations-accept");
    accept.setDaemon(true);
    accept.start();
  }

  private void accept() {
    while (!server.isClosed()) {
      try (Socket s = server.accept()) {
        // Accepted and closed: only the client's connect matters.
      } catch (IOException e) {
        // Closed, or one accept failed; the loop's condition decides.
      }
    }
  }

  /** Connects once to each of {@code count} addresses not connected to before. */
  synchronized void connectToNew(int count) {
    for (int i = 0; i < count; i++) {
      int k = ++next;
      byte[] ip = {127, (byte) (1 + (k >> 16)), (byte) (k >> 8), (byte) k};
      try (Socket s = new Socket()) {
        s.connect(
            new InetSocketAddress(InetAddress.getByAddress(ip), server.getLocalPort()), 5_000);
      } catch (IOException e) {
        // A refused connect still counts as one the application made; nothing to keep.
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
