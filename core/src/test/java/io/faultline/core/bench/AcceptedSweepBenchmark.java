package io.faultline.core.bench;

import io.faultline.core.finding.Findings;
import io.faultline.core.host.AcceptedConnections;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One sweep of the connections a server accepted ({@link AcceptedConnections#sweep()}) at a
 * broker's scale, both ways: {@code sockDiag*} lists this process's descriptors then reads the
 * listeners and every connection's TCP_INFO in one netlink {@code sock_diag} dump; {@code
 * perSocket*} (the fallback where netlink is refused) lists the descriptors and the namespace's
 * {@code /proc} TCP tables, then reads one TCP_INFO per connection; {@code listeners1000} is the
 * check a process that does not listen makes each sweep. The connections are real loopback ones,
 * their client ends in a python3 process (the namespace's tables hold both ends). Needs {@code
 * ulimit -n} above the largest count.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class AcceptedSweepBenchmark {

  /** Opens {@code n} connections to a port and holds them until its standard input closes. */
  private static final String CLIENTS =
      "import socket,sys\n"
          + "port,n=int(sys.argv[1]),int(sys.argv[2])\n"
          + "held=[socket.create_connection(('127.0.0.1',port)) for _ in range(n)]\n"
          + "print('connected',len(held),flush=True)\n"
          + "sys.stdin.read()\n";

  /** A server with {@link #connections()} accepted connections and its sweeper. */
  @State(Scope.Benchmark)
  public abstract static class Server {
    private final List<SocketChannel> ends = new ArrayList<>();
    private ServerSocketChannel server;
    private Process clients;
    final SocketFds sockets = SocketFds.forThisProcess();
    AcceptedConnections sockDiag;
    AcceptedConnections perSocket;

    abstract int connections();

    /** Opens and accepts the connections. */
    @Setup(Level.Trial)
    public void connect() throws IOException {
      server =
          ServerSocketChannel.open()
              .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      clients =
          new ProcessBuilder(
                  "python3", "-c", CLIENTS, Integer.toString(port), Integer.toString(connections()))
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      for (int i = 0; i < connections(); i++) {
        ends.add(server.accept());
      }
      TcpInfoReader reader = TcpInfoReader.create();
      sockDiag = sweeper(reader);
      perSocket = sweeper(new WithoutDump(reader));
      check(sockDiag, true);
      check(perSocket, false);
    }

    /**
     * The sweeper sees every connection the way it should. The {@code /proc} route is let off by 1
     * %: {@code /proc/net/tcp} is read in pieces, each resumed by position, and while the
     * namespace's table changes (the previous trial's connections leaving TIME_WAIT) a row comes
     * twice or not at all.
     */
    private void check(AcceptedConnections sweeper, boolean inOnePass) {
      AcceptedConnections.Sweep swept = sweeper.sweep();
      int slack = inOnePass ? 0 : connections() / 100;
      if (Math.abs(swept.connections() - connections()) > slack || swept.inOnePass() != inOnePass) {
        throw new IllegalStateException(
            "swept " + swept + ", expected " + connections() + ", in one pass: " + inOnePass);
      }
    }

    private static AcceptedConnections sweeper(TcpInfoReader reader) {
      return new AcceptedConnections(
          SocketFds.forThisProcess(),
          () -> reader,
          ignored -> false,
          new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("bench")),
          Clock.systemUTC());
    }

    /** Closes them. */
    @TearDown(Level.Trial)
    public void close() throws IOException {
      for (SocketChannel c : ends) {
        c.close();
      }
      server.close();
      clients.getOutputStream().close();
      clients.destroy();
    }
  }

  /** A thousand accepted connections. */
  public static class Thousand extends Server {
    @Override
    int connections() {
      return 1_000;
    }
  }

  /** A broker's 18,000 (the LINE incident's). */
  public static class EighteenThousand extends Server {
    @Override
    int connections() {
      return 18_000;
    }
  }

  /** The reader without its dump: the sweep then reads one TCP_INFO per connection. */
  private static final class WithoutDump implements TcpInfoReader {
    private final TcpInfoReader reader;

    WithoutDump(TcpInfoReader reader) {
      this.reader = reader;
    }

    @Override
    public boolean isSupported() {
      return reader.isSupported();
    }

    @Override
    public Optional<String> unsupportedReason() {
      return reader.unsupportedReason();
    }

    @Override
    public Outcome<TcpInfo> read(int fd) {
      return reader.read(fd);
    }
  }

  /** One sweep of 1,000 connections, one TCP_INFO each. */
  @Benchmark
  public AcceptedConnections.Sweep perSocket1000(Thousand server) {
    return server.perSocket.sweep();
  }

  /** One sweep of 18,000 connections, one TCP_INFO each. */
  @Benchmark
  public AcceptedConnections.Sweep perSocket18000(EighteenThousand server) {
    return server.perSocket.sweep();
  }

  /**
   * What each sweep costs a process until it listens on a port of its own (most of a fleet, which
   * only connects): its listeners from {@code /proc}, the namespace's TCP tables (here 1,000
   * connections, both ends) and, where a socket listens, its descriptors.
   */
  @Benchmark
  public Outcome<Map<Integer, Integer>> listeners1000(Thousand server) {
    return server.sockets.listeningSockets();
  }

  /** One sweep of 1,000 connections in one sock_diag dump. */
  @Benchmark
  public AcceptedConnections.Sweep sockDiag1000(Thousand server) {
    return server.sockDiag.sweep();
  }

  /** One sweep of 18,000 connections in one sock_diag dump. */
  @Benchmark
  public AcceptedConnections.Sweep sockDiag18000(EighteenThousand server) {
    return server.sockDiag.sweep();
  }
}
