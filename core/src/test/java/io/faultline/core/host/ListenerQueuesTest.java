package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.core.net.ListenQueue;
import io.faultline.core.net.SocketFds;
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
import org.junit.jupiter.api.Test;

/**
 * {@link ListenerQueues} on real listening sockets of this JVM: connections nobody accepts fill a
 * small accept queue, the gauges follow it, {@code LISTENER_QUEUE_FULL} names the full port and
 * clears once the queue is drained; a second listener and an ignored one are told apart.
 */
class ListenerQueuesTest {

  @Test
  void aQueueNobodyAcceptsFillsAndItsPortIsNamedThenItDrains() throws Exception {
    TcpInfoReader reader = TcpInfoReader.create();
    assumeTrue(reader.isSupported(), "TCP_INFO is read only on Linux");
    InetAddress loopback = InetAddress.getLoopbackAddress();
    Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("test"));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    List<SocketChannel> clients = new ArrayList<>();
    try (ServerSocketChannel stormed =
            ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0), 2);
        ServerSocketChannel quiet =
            ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0), 2);
        ServerSocketChannel ignoredOne =
            ServerSocketChannel.open().bind(new InetSocketAddress(loopback, 0), 2)) {
      int stormedPort = port(stormed);
      int quietPort = port(quiet);
      int ignoredPort = port(ignoredOne);
      ListenerQueues queues =
          new ListenerQueues(
              SocketFds.forThisProcess(), () -> reader, p -> p == ignoredPort, findings);
      queues.bindTo(registry);

      clients.add(SocketChannel.open(stormed.getLocalAddress()));
      queues.sample();
      assertThat(queues.latest(stormedPort)).contains(new ListenQueue(1, 2));
      assertThat(queues.latest(quietPort)).contains(new ListenQueue(0, 2));
      assertThat(queues.latest(ignoredPort)).isEmpty();
      assertThat(findings.active()).noneMatch(ListenerQueuesTest::queueFull);

      clients.add(SocketChannel.open(stormed.getLocalAddress()));
      queues.sample();
      assertThat(queues.latest(stormedPort)).contains(new ListenQueue(2, 2));
      assertThat(findings.active())
          .filteredOn(ListenerQueuesTest::queueFull)
          .singleElement()
          .satisfies(
              f -> {
                assertThat(f.subject()).isEqualTo("port " + stormedPort);
                // The host's counter, which names no listener, beside the named full queue.
                assertThat(f.evidence())
                    .containsKey("namespace_listen_overflows_since_last_sample");
              });
      assertThat(
              registry
                  .get("faultline.host.tcp.listener.queue")
                  .tag("port", Integer.toString(stormedPort))
                  .gauge()
                  .value())
          .isEqualTo(2.0);
      assertThat(
              registry
                  .get("faultline.host.tcp.listener.queue.limit")
                  .tag("port", Integer.toString(quietPort))
                  .gauge()
                  .value())
          .isEqualTo(2.0);

      stormed.accept().close();
      stormed.accept().close();
      queues.sample();
      assertThat(queues.latest(stormedPort)).contains(new ListenQueue(0, 2));
      assertThat(findings.active()).noneMatch(ListenerQueuesTest::queueFull);
    } finally {
      for (SocketChannel c : clients) {
        c.close();
      }
    }
  }

  private static boolean queueFull(Finding f) {
    return f.type() == HostFindingTypes.LISTENER_QUEUE_FULL;
  }

  private static int port(ServerSocketChannel channel) throws java.io.IOException {
    return ((InetSocketAddress) channel.getLocalAddress()).getPort();
  }
}
