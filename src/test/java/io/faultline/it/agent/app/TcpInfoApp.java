package io.faultline.it.agent.app;

import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Optional;

/**
 * Reads TCP_INFO of a loopback connection through the agent: the descriptor by {@code
 * SocketFds.ofChannel} (needs {@code sun.nio.ch} opened by the agent) and the facts through the
 * agent's reader (the Foreign Function &amp; Memory API on JDK 22 and later, else the JNA nested in
 * the shaded jar, with the delivery sample through the agent's JNI library). Prints {@code fd=<n>},
 * {@code reader class=<name>}, {@code delivery acked=<n> unacked=<n>}, {@code tcpinfo state=<s>
 * rtt=<us>} or the reasons. The agent's copy of core is relocated under {@code
 * io.faultline.shaded.core}, so it is reached by those names, as the agent's own code sees it.
 */
public final class TcpInfoApp {

  private static final String CORE_NET = "io.faultline.shaded.core.net.";

  private TcpInfoApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
          SocketChannel accepted = server.accept()) {
        Object fd =
            Class.forName(CORE_NET + "SocketFds")
                .getMethod("ofChannel", SocketChannel.class)
                .invoke(null, client);
        Optional<?> fdValue = value(fd);
        System.out.println("fd=" + fdValue.map(String::valueOf).orElse("none " + fd));
        Object reader =
            Class.forName("io.faultline.agent.net.AgentTcpInfo").getMethod("reader").invoke(null);
        Class<?> readerType = Class.forName(CORE_NET + "TcpInfoReader");
        System.out.println("reader class=" + reader.getClass().getSimpleName());
        System.out.println(
            "reader supported="
                + readerType.getMethod("isSupported").invoke(reader)
                + " "
                + ((Optional<?>) readerType.getMethod("unsupportedReason").invoke(reader))
                    .map(String::valueOf)
                    .orElse(""));
        if (fdValue.isPresent()) {
          client.write(ByteBuffer.wrap(new byte[100]));
          accepted.read(ByteBuffer.allocate(200));
          Thread.sleep(100); // the peer's ACK arrives
          System.out.println(
              "delivery acked="
                  + readerType.getMethod("bytesAcked", int.class).invoke(reader, fdValue.get())
                  + " unacked="
                  + readerType
                      .getMethod("unacknowledgedBytes", int.class)
                      .invoke(reader, fdValue.get()));
          // JNA sets this when its native part loads; the JNI route reads the delivery sample
          // without it.
          System.out.println(
              "jna loaded by the delivery sample=" + System.getProperty("jna.loaded"));
          Object info = readerType.getMethod("read", int.class).invoke(reader, fdValue.get());
          Optional<?> facts = value(info);
          if (facts.isPresent()) {
            Object i = facts.get();
            System.out.println(
                "tcpinfo state="
                    + i.getClass().getMethod("state").invoke(i)
                    + " rtt="
                    + i.getClass().getMethod("rttMicros").invoke(i));
          } else {
            System.out.println("tcpinfo unavailable " + info);
          }
        }
        System.out.println("jna loader=" + jnaLoader());
      }
    }
  }

  /** {@code Outcome.value()}. */
  private static Optional<?> value(Object outcome) throws Exception {
    Method value = outcome.getClass().getMethod("value");
    value.setAccessible(true);
    return (Optional<?>) value.invoke(outcome);
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
