package io.faultline.it.agent.app;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;

/**
 * {@link WaitingApp} that first opens a listening socket of its own on a free loopback port, as a
 * server (a broker) would, and keeps it open until it exits.
 */
public final class ListeningApp {

  private ListeningApp() {}

  /** See the class comment; the arguments are {@link WaitingApp}'s. */
  public static void main(String[] args) throws Exception {
    try (ServerSocketChannel server =
        ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      System.out.println("listening on " + server.getLocalAddress());
      WaitingApp.main(args);
    }
  }
}
