package io.faultline.core.bench;

import io.faultline.core.finding.Findings;
import io.faultline.core.host.AcceptedConnections;
import io.faultline.core.net.SocketFds;
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
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One sweep of the connections a server accepted ({@link AcceptedConnections#sweep()}): listing the
 * process's sockets, then one TCP_INFO read per accepted connection, at a broker's scale. The
 * connections are real loopback ones, both ends in this JVM (so the descriptor table holds twice as
 * many). Needs {@code ulimit -n} above twice the largest count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class AcceptedSweepBenchmark {

  /** Accepted connections. */
  @Param({"1000", "18000"})
  public int connections;

  private final List<SocketChannel> ends = new ArrayList<>();
  private ServerSocketChannel server;
  private AcceptedConnections sweeper;

  /** Opens and accepts the connections. */
  @Setup(Level.Trial)
  public void connect() throws IOException {
    server =
        ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
    for (int i = 0; i < connections; i++) {
      ends.add(SocketChannel.open(server.getLocalAddress()));
      ends.add(server.accept());
    }
    sweeper =
        new AcceptedConnections(
            SocketFds.forThisProcess(),
            TcpInfoReader.create(),
            port -> false,
            new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("bench")),
            Clock.systemUTC());
    AcceptedConnections.Sweep first = sweeper.sweep();
    if (first.connections() != connections) {
      throw new IllegalStateException("swept " + first + ", expected " + connections);
    }
  }

  /** One full sweep. */
  @Benchmark
  public AcceptedConnections.Sweep sweep() {
    return sweeper.sweep();
  }

  /** Closes them. */
  @TearDown(Level.Trial)
  public void close() throws IOException {
    for (SocketChannel c : ends) {
      c.close();
    }
    server.close();
  }
}
