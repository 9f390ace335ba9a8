package io.faultline.agent.bench;

import io.faultline.bootstrap.ConnectHook;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What counting connects costs: loopback connects per second through {@code Socket.connect} and
 * {@code SocketChannel.open} in child JVMs without the agent, with it and {@code net.churn=off},
 * and with it on; and, with the agent on, the counting path alone ({@code ConnectHook.connected}:
 * the callback, a map lookup and a {@code LongAdder}) in a tight loop. Each child runs in a fresh
 * network namespace ({@code unshare --net}) when it can, and closes with RST, so no TIME_WAIT is
 * left anywhere. A benchmark, not a test: it prints a table and asserts nothing.
 *
 * <p>Run from the repository root after {@code ./mvnw -pl agent -am package -DskipTests}:
 *
 * <pre>
 * java -cp agent/target/test-classes io.faultline.agent.bench.ConnectOverheadBenchmark \
 *     agent/target/faultline-agent-0.1.0-SNAPSHOT.jar [connects per round, default 20000] [java]
 * </pre>
 */
public final class ConnectOverheadBenchmark {

  private static final int ROUNDS = 7;

  private ConnectOverheadBenchmark() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: ConnectOverheadBenchmark <agent jar> [connects] [java]");
      System.exit(64);
    }
    Path agent = Path.of(args[0]).toAbsolutePath();
    int connects = args.length > 1 ? Integer.parseInt(args[1]) : 20000;
    String java =
        args.length > 2
            ? args[2]
            : Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath =
        Path.of(
                ConnectOverheadBenchmark.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI())
            .toString();
    boolean netns = canUnshare();
    System.out.printf(
        Locale.ROOT,
        "%s, %d connects per round, median of %d rounds, fresh netns: %s%n",
        java,
        connects,
        ROUNDS,
        netns);
    String[][] configs = {
      {"no agent", null},
      {"agent, net.churn=off", "prometheus.port=0,net.churn=off"},
      {"agent, net.churn on", "prometheus.port=0"}
    };
    for (String[] config : configs) {
      List<String> command = new ArrayList<>();
      if (netns) {
        command.addAll(List.of("unshare", "--net", "sh", "-c", "ip link set lo up && exec \"$@\""));
        command.add("sh");
      }
      command.add(java);
      if (config[1] != null) {
        command.add("-javaagent:" + agent + "=" + config[1]);
      }
      command.addAll(List.of("-cp", classPath, Loop.class.getName(), String.valueOf(connects)));
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      process.waitFor();
      String result =
          out.lines().filter(l -> l.startsWith("result ")).findFirst().orElse("failed: " + out);
      System.out.printf(Locale.ROOT, "%-22s %s%n", config[0], result.replace("result ", ""));
    }
  }

  private static boolean canUnshare() {
    try {
      return new ProcessBuilder("unshare", "--net", "true").start().waitFor() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The child: connect loops, then the hook alone when the agent is there. */
  public static final class Loop {

    private Loop() {}

    /** Args: connects per round. Prints one {@code result ...} line. */
    public static void main(String[] args) throws Exception {
      int connects = Integer.parseInt(args[0]);
      ServerSocket server = new ServerSocket(0, 1000, InetAddress.getByName("127.0.0.1"));
      Thread acceptor =
          new Thread(
              () -> {
                while (true) {
                  try {
                    server.accept().close();
                  } catch (IOException e) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      InetSocketAddress target = (InetSocketAddress) server.getLocalSocketAddress();
      socketRound(target, connects); // warm-up
      channelRound(target, connects);
      double[] socket = new double[ROUNDS];
      double[] channel = new double[ROUNDS];
      for (int i = 0; i < ROUNDS; i++) {
        socket[i] = socketRound(target, connects);
        channel[i] = channelRound(target, connects);
      }
      String hook = "hook: n/a (no agent)";
      if (hasAgent()) {
        hook = String.format(Locale.ROOT, "hook: %.1f ns/call", hookNanos(target));
      }
      System.out.printf(
          Locale.ROOT,
          "result Socket.connect: %.0f ns/connect   SocketChannel.open: %.0f ns/connect   %s%n",
          median(socket),
          median(channel),
          hook);
    }

    private static boolean hasAgent() {
      return java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
          .anyMatch(a -> a.startsWith("-javaagent:"));
    }

    private static double socketRound(InetSocketAddress target, int n) throws IOException {
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        Socket socket = new Socket();
        socket.setSoLinger(true, 0); // close with RST: no TIME_WAIT
        socket.connect(target, 5000);
        socket.close();
      }
      return (System.nanoTime() - start) / (double) n;
    }

    private static double channelRound(InetSocketAddress target, int n) throws IOException {
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        SocketChannel channel = SocketChannel.open();
        channel.socket().setSoLinger(true, 0);
        channel.connect(target);
        channel.close();
      }
      return (System.nanoTime() - start) / (double) n;
    }

    private static double hookNanos(InetSocketAddress target) {
      int n = 10_000_000;
      for (int i = 0; i < n; i++) {
        ConnectHook.connected(target);
      }
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        ConnectHook.connected(target);
      }
      return (System.nanoTime() - start) / (double) n;
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
