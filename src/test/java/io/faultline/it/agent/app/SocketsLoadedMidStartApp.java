package io.faultline.it.agent.app;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.Map;

/**
 * Loads the JDK's {@code java.net.Socket} and {@code sun.nio.ch.SocketChannelImpl} for the first
 * time while the agent is still starting, after its {@code jdk-socket-connect} module was installed
 * and before the start ended: the moment the agent's start thread is seen back in the installation
 * of the other modules. Then, once the agent's export runs, it connects {@code N} times with a
 * socket and {@code N} times with a channel, and prints the agent's {@code faultline_net_connects}
 * lines and its status.
 *
 * <p>Prints {@code in-window yes} when both classes loaded while the start thread was still
 * installing modules, {@code in-window no} when the start got past that first (nothing to prove
 * then); {@code kind socket|channel 127.0.0.1:<port>}; the metric lines between {@code
 * metrics-begin} and {@code metrics-end}; {@code agent <json>}. Args: the agent's endpoint port, N.
 */
public final class SocketsLoadedMidStartApp {

  private static final String START_THREAD = "faultline-agent-start";

  private SocketsLoadedMidStartApp() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    int endpoint = Integer.parseInt(args[0]);
    int n = Integer.parseInt(args[1]);
    Thread start = startThread();
    boolean inWindow = false;
    if (start != null && awaitJdkModuleInstalled(start)) {
      System.out.println("loading-jdk-socket-classes");
      // Loaded, not initialised, by the bootstrap loader: exactly what the JDK does on first use.
      Class.forName("java.net.Socket", false, null);
      Class.forName("sun.nio.ch.SocketChannelImpl", false, null);
      inWindow = installing(start.getStackTrace());
    }
    System.out.println("in-window " + (inWindow ? "yes" : "no"));
    AgentReady.awaitExport();

    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    try (ServerSocket forSockets = ConnectKindsApp.acceptingServer(loopback);
        ServerSocket forChannels = ConnectKindsApp.acceptingServer(loopback)) {
      InetSocketAddress socketTarget = (InetSocketAddress) forSockets.getLocalSocketAddress();
      InetSocketAddress channelTarget = (InetSocketAddress) forChannels.getLocalSocketAddress();
      System.out.println("kind socket 127.0.0.1:" + socketTarget.getPort());
      System.out.println("kind channel 127.0.0.1:" + channelTarget.getPort());
      for (int i = 0; i < n; i++) {
        try (Socket s = new Socket()) {
          s.connect(socketTarget, 5000);
        }
        try (SocketChannel c = SocketChannel.open(channelTarget)) {
          c.isConnected();
        }
      }
      // Counters appear once the churn monitor's next round registered them.
      Thread.sleep(1500);
      System.out.println("metrics-begin");
      for (String line :
          ConnectKindsApp.get("http://127.0.0.1:" + endpoint + "/metrics").split("\n")) {
        if (line.startsWith("faultline_net_connects")) {
          System.out.println(line);
        }
      }
      System.out.println("metrics-end");
      System.out.println(
          "agent " + ConnectKindsApp.get("http://127.0.0.1:" + endpoint + "/faultline/agent"));
    }
  }

  /** The agent's start thread, looked for during 10 s; null when it has already ended. */
  private static Thread startThread() throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
        if (t.getKey().getName().equals(START_THREAD)) {
          return t.getKey();
        }
      }
      Thread.sleep(1);
    }
    return null;
  }

  /**
   * Watches {@code start}'s stack until it has been in the install of the module that weaves JDK
   * classes and is back in the install of the others; false when it got past the install first.
   */
  private static boolean awaitJdkModuleInstalled(Thread start) {
    boolean seen = false;
    while (start.isAlive()) {
      StackTraceElement[] stack = start.getStackTrace();
      if (has(stack, "installBootstrapModule")) {
        seen = true;
      } else if (seen) {
        return installing(stack);
      }
      Thread.onSpinWait();
    }
    return false;
  }

  private static boolean installing(StackTraceElement[] stack) {
    return has(stack, "installModules");
  }

  private static boolean has(StackTraceElement[] stack, String method) {
    for (StackTraceElement e : stack) {
      if (e.getMethodName().equals(method)) {
        return true;
      }
    }
    return false;
  }
}
