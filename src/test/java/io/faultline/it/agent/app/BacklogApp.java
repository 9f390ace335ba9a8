package io.faultline.it.agent.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A server that listens with a small backlog and accepts nobody until told: its port goes to a
 * file, then each line on standard input is a command — {@code accept} accepts (and closes) every
 * waiting connection, {@code stop} ends it.
 *
 * <p>Arguments: backlog, the file to write the port to.
 */
public final class BacklogApp {

  private BacklogApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    int backlog = Integer.parseInt(args[0]);
    try (ServerSocketChannel server =
        ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), backlog)) {
      server.configureBlocking(false);
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      ReadyFile.write(Path.of(args[1]), Integer.toString(port));
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.equals("accept")) {
          int accepted = 0;
          for (SocketChannel c = server.accept(); c != null; c = server.accept()) {
            c.close();
            accepted++;
          }
          System.out.println("accepted " + accepted);
        } else if (line.equals("stop")) {
          break;
        }
      }
    }
  }
}
