package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.finding.Findings;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.SocketFds;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link AcceptedConnections} on real loopback connections of this JVM: the sweep reads them in one
 * {@code sock_diag} dump, and where the reader has no dump it reads the same connections one
 * TCP_INFO each, with the same gauges, and counts the fallback.
 */
class AcceptedConnectionsTest {

  private static final int CONNECTIONS = 30;

  @Test
  void aDumpAndOneReadPerSocketSeeTheSameConnectionsAndTheFallbackIsCounted() throws Exception {
    TcpInfoReader reader = TcpInfoReader.create();
    assumeTrue(reader.isSupported(), "TCP_INFO is read only on Linux");
    assumeTrue(reader.dump().isSupported(), "no sock_diag route here");
    List<SocketChannel> ends = new ArrayList<>();
    try (ServerSocketChannel server =
            ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), CONNECTIONS);
        ServerSocketChannel idle =
            ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      int idlePort = ((InetSocketAddress) idle.getLocalAddress()).getPort();
      for (int i = 0; i < CONNECTIONS; i++) {
        ends.add(SocketChannel.open(server.getLocalAddress()));
        ends.add(server.accept());
      }

      SimpleMeterRegistry bulkMeters = new SimpleMeterRegistry();
      AcceptedConnections bulk = sweeper(() -> reader, port, idlePort);
      bulk.bindTo(bulkMeters);
      AcceptedConnections.Sweep inOnePass = bulk.sweep();

      SimpleMeterRegistry fallbackMeters = new SimpleMeterRegistry();
      AcceptedConnections fallback = sweeper(() -> withoutDump(reader), port, idlePort);
      fallback.bindTo(fallbackMeters);
      AcceptedConnections.Sweep oneByOne = fallback.sweep();

      assertThat(inOnePass.inOnePass()).isTrue();
      assertThat(oneByOne.inOnePass()).isFalse();
      for (AcceptedConnections.Sweep s : List.of(inOnePass, oneByOne)) {
        assertThat(s.listeners()).as("%s", s).isEqualTo(2);
        assertThat(s.connections()).as("%s", s).isEqualTo(CONNECTIONS);
        assertThat(s.withoutScaling()).as("loopback negotiates window scaling").isZero();
      }
      for (SimpleMeterRegistry r : List.of(bulkMeters, fallbackMeters)) {
        assertThat(accepted(r, port)).isEqualTo(CONNECTIONS);
        assertThat(accepted(r, idlePort)).isZero();
        String p = Integer.toString(port);
        assertThat(r.get(HostTcpMeters.ACCEPTED_RTT_MAX.name()).tag("port", p).gauge().value())
            .as("the clients' RTT")
            .isPositive();
        assertThat(
                r.get(HostTcpMeters.ACCEPTED_CLIENT_WINDOW_MIN.name())
                    .tag("port", p)
                    .gauge()
                    .value())
            .as("the clients' window")
            .isPositive();
        // Every connection comes from 127.0.0.1: one client, and the others' row.
        assertThat(r.find(HostTcpMeters.ACCEPTED_CLIENT_RTT.name()).tag("port", p).gauges())
            .extracting(g -> g.getId().getTag("client"))
            .containsExactlyInAnyOrder("127.0.0.1", "other");
      }
      assertThat(bulk.fallbacks()).isZero();
      assertThat(bulk.bulkSweeps()).isEqualTo(1);
      assertThat(fallback.fallbacks()).isEqualTo(1);
      assertThat(fallback.bulkSweeps()).isZero();
      assertThat(
              fallbackMeters
                  .get(HostTcpMeters.ACCEPTED_FALLBACK_SWEEPS.name())
                  .functionCounter()
                  .count())
          .isEqualTo(1.0);
      assertThat(
              bulkMeters
                  .get(HostTcpMeters.ACCEPTED_FALLBACK_SWEEPS.name())
                  .functionCounter()
                  .count())
          .isZero();

      ends.remove(ends.size() - 1).close(); // one accepted end closed
      ends.remove(ends.size() - 1).close();
      assertThat(bulk.sweep().connections()).isEqualTo(CONNECTIONS - 1);
      assertThat(accepted(bulkMeters, port)).isEqualTo(CONNECTIONS - 1);
      bulk.close();
      fallback.close();
      assertThat(bulkMeters.getMeters()).isEmpty();
    } finally {
      for (SocketChannel c : ends) {
        c.close();
      }
    }
  }

  /**
   * Another process listens on the listener's port at another address: the dump holds its
   * connections too, under the same local port, and the sweep keeps them out by inode.
   */
  @Test
  void connectionsOfAnotherProcessOnTheSamePortAreNotCounted() throws Exception {
    TcpInfoReader reader = TcpInfoReader.create();
    assumeTrue(reader.isSupported(), "TCP_INFO is read only on Linux");
    assumeTrue(reader.dump().isSupported(), "no sock_diag route here");
    List<SocketChannel> ends = new ArrayList<>();
    Process other = null;
    try (ServerSocketChannel server =
        ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), CONNECTIONS)) {
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      try {
        other =
            new ProcessBuilder("python3", "-c", OTHER_LISTENER, Integer.toString(port), "5")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
      } catch (java.io.IOException e) {
        assumeTrue(false, "python3 is not installed: " + e.getMessage());
      }
      java.io.BufferedReader out =
          new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream()));
      assertThat(out.readLine()).isEqualTo("listening");
      for (int i = 0; i < 5; i++) {
        ends.add(SocketChannel.open(new InetSocketAddress("127.0.0.2", port)));
      }
      assertThat(out.readLine()).isEqualTo("accepted 5");
      for (int i = 0; i < 3; i++) {
        ends.add(SocketChannel.open(server.getLocalAddress()));
        ends.add(server.accept());
      }
      AcceptedConnections sweeper = sweeper(() -> reader, port, port);
      AcceptedConnections.Sweep sweep = sweeper.sweep();
      assertThat(sweep.inOnePass()).isTrue();
      assertThat(sweep.listeners()).isEqualTo(1);
      assertThat(sweep.connections()).as("this process's 3, not the other's 5").isEqualTo(3);
      AcceptedConnections.Sweep again = sweeper.sweep();
      assertThat(again.connections()).isEqualTo(3);
    } finally {
      for (SocketChannel c : ends) {
        c.close();
      }
      if (other != null) {
        other.getOutputStream().close();
        other.destroy();
      }
    }
  }

  @Test
  void theReaderIsAskedForOnlyOnceThisProcessListensOnAPortOfItsOwn() throws Exception {
    TcpInfoReader reader = TcpInfoReader.create();
    assumeTrue(reader.isSupported(), "TCP_INFO is read only on Linux");
    AtomicInteger asked = new AtomicInteger();
    try (ServerSocketChannel server =
        ServerSocketChannel.open()
            .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      AtomicBoolean followed = new AtomicBoolean();
      AcceptedConnections sweeper =
          new AcceptedConnections(
              SocketFds.forThisProcess(),
              () -> {
                asked.incrementAndGet();
                return reader;
              },
              p -> !(followed.get() && p == port),
              new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("test")),
              Clock.systemUTC());

      AcceptedConnections.Sweep ignoredOnly = sweeper.sweep();
      assertThat(ignoredOnly.listeners()).isZero();
      assertThat(asked).as("only ignored listeners: no reader").hasValue(0);

      followed.set(true);
      try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
          SocketChannel accepted = server.accept()) {
        AcceptedConnections.Sweep own = sweeper.sweep();
        assertThat(asked.get()).as("a listener of its own: the reader").isPositive();
        assertThat(own.listeners()).isEqualTo(1);
        assertThat(own.connections()).isEqualTo(1);
      }
    }
  }

  /** Listens on 127.0.0.2 at a port, accepts a number of connections and holds them. */
  private static final String OTHER_LISTENER =
      "import socket,sys\n"
          + "port,n=int(sys.argv[1]),int(sys.argv[2])\n"
          + "s=socket.socket()\n"
          + "s.bind(('127.0.0.2',port))\n"
          + "s.listen(16)\n"
          + "print('listening',flush=True)\n"
          + "held=[s.accept() for _ in range(n)]\n"
          + "print('accepted',len(held),flush=True)\n"
          + "sys.stdin.read()\n";

  /** A sweeper of this JVM that looks only at {@code port} and {@code other}. */
  private static AcceptedConnections sweeper(
      java.util.function.Supplier<TcpInfoReader> reader, int port, int other) {
    return new AcceptedConnections(
        SocketFds.forThisProcess(),
        reader,
        p -> p != port && p != other,
        new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("test")),
        Clock.systemUTC());
  }

  private static double accepted(SimpleMeterRegistry r, int port) {
    return r.get(HostTcpMeters.ACCEPTED.name()).tag("port", Integer.toString(port)).gauge().value();
  }

  /** {@code reader} without its dump: what a reader without a sock_diag route is. */
  private static TcpInfoReader withoutDump(TcpInfoReader reader) {
    return new TcpInfoReader() {
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
    };
  }
}
