package io.faultline.it.agent.app;

import io.faultline.agent.net.AgentTcpInfo;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Reads TCP_INFO of a loopback connection through the agent: the descriptor by {@code
 * SocketFds.ofChannel} (needs {@code sun.nio.ch} opened by the agent) and the facts through the JNA
 * nested in the shaded jar. Prints {@code fd=<n>}, {@code tcpinfo state=<s> rtt=<us>} or the
 * reasons.
 */
public final class TcpInfoApp {

  private TcpInfoApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
          SocketChannel accepted = server.accept()) {
        Outcome<Integer> fd = SocketFds.ofChannel(client);
        System.out.println("fd=" + fd.value().map(String::valueOf).orElse("none " + fd));
        TcpInfoReader reader = AgentTcpInfo.reader();
        System.out.println(
            "reader supported="
                + reader.isSupported()
                + " "
                + reader.unsupportedReason().orElse(""));
        if (fd.isAvailable()) {
          Outcome<TcpInfo> info = reader.read(fd.value().orElseThrow());
          System.out.println(
              info.value()
                  .map(i -> "tcpinfo state=" + i.state() + " rtt=" + i.rttMicros())
                  .orElse("tcpinfo unavailable " + info));
        }
        System.out.println("jna loader=" + jnaLoader());
      }
    }
  }

  private static String jnaLoader() {
    try {
      Class.forName("com.sun.jna.Native");
      return "visible to the application (should not be)";
    } catch (ClassNotFoundException e) {
      return "isolated";
    }
  }
}
