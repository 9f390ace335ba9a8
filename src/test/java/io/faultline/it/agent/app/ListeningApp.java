package io.faultline.it.agent.app;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@link WaitingApp} that opens a listening socket of its own on a free loopback port, as a server
 * (a broker) would, and keeps it open until it exits. It listens from its start, or, with {@code
 * -Dlistening.when=<file>}, only once that file exists: a server that opens its listeners late.
 */
public final class ListeningApp {

  private ListeningApp() {}

  /** See the class comment; the arguments are {@link WaitingApp}'s. */
  public static void main(String[] args) throws Exception {
    String when = System.getProperty("listening.when");
    if (when == null) {
      try (ServerSocketChannel server = listen()) {
        WaitingApp.main(args);
      }
      return;
    }
    Thread late =
        new Thread(
            () -> {
              try {
                while (!Files.exists(Path.of(when))) {
                  Thread.sleep(100);
                }
                listen(); // open until the process exits
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            },
            "late-listener");
    late.setDaemon(true);
    late.start();
    WaitingApp.main(args);
  }

  private static ServerSocketChannel listen() throws IOException {
    ServerSocketChannel server =
        ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    System.out.println("listening on " + server.getLocalAddress());
    return server;
  }
}
