package io.faultline.agent.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.core.metrics.LateRegistry;
import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.network.PlaintextChannelBuilder;
import org.apache.kafka.common.network.PlaintextTransportLayer;
import org.apache.kafka.common.network.SslTransportLayer;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's per-JVM Kafka state, built without an agent: plain objects stand in for a client's
 * {@code NetworkClient}, {@code Selector} and {@code ClusterConnectionStates} (clients are found by
 * identity), and a socket connected on loopback for a broker connection.
 */
class KafkaClientsTest {

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
    meters.close();
  }

  private KafkaClients clients(String agentArgs) {
    return clients(agentArgs, NO_TCP_INFO);
  }

  private KafkaClients clients(String agentArgs, TcpInfoReader tcpInfo) {
    FaultlineConfig config =
        FaultlineConfig.builder().sources(ConfigSources.of(Map.of(), Map.of(), agentArgs)).load();
    return new KafkaClients(
        new KafkaClients.Services(
            config,
            new Findings(config),
            LateRegistry.of(meters),
            scheduler,
            tcpInfo,
            true,
            clock::get));
  }

  /** A platform without TCP_INFO: delivery cannot be observed, everything else works. */
  private static final TcpInfoReader NO_TCP_INFO =
      new TcpInfoReader() {
        @Override
        public boolean isSupported() {
          return false;
        }

        @Override
        public Optional<String> unsupportedReason() {
          return Optional.of("not in this test");
        }

        @Override
        public Outcome<TcpInfo> read(int fd) {
          return Outcome.unavailable("not in this test");
        }
      };

  /** A broker's listening socket on loopback and a connection to it. */
  private record Loopback(ServerSocketChannel broker, SocketChannel socket)
      implements AutoCloseable {
    static Loopback open() throws java.io.IOException {
      ServerSocketChannel broker = ServerSocketChannel.open();
      broker.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return new Loopback(broker, SocketChannel.open(broker.getLocalAddress()));
    }

    int port() throws java.io.IOException {
      return ((InetSocketAddress) broker.getLocalAddress()).getPort();
    }

    @Override
    public void close() throws java.io.IOException {
      socket.close();
      broker.close();
    }
  }

  /** A client's parts, as the advice sees them: objects compared by identity. */
  private record Parts(Object networkClient, Object selector, Object states) {
    Parts() {
      this(new Object(), new Object(), new Object());
    }
  }

  @Test
  void aClientIsRegisteredOnceAndFoundByItsSelectorOrItsConnectionStates() {
    KafkaClients k = clients("");
    Parts a = new Parts();
    Parts b = new Parts();

    assertThat(k.client(null, a.selector(), null, null)).as("not registered yet").isNull();
    KafkaClient first = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    KafkaClient second = k.client(b.networkClient(), b.selector(), b.states(), "consumer-g-1");

    assertThat(first).isNotNull().isNotSameAs(second);
    assertThat(k.client(a.networkClient(), a.selector(), a.states(), "producer-1")).isSameAs(first);
    assertThat(k.client(null, a.selector(), null, null)).isSameAs(first);
    assertThat(k.client(null, null, a.states(), null)).isSameAs(first);
    assertThat(k.client(null, b.selector(), null, null)).isSameAs(second);
    assertThat(first.type().tagValue()).isEqualTo("producer");
    assertThat(second.type().tagValue()).isEqualTo("consumer");
    assertThat(k.clients()).containsExactlyInAnyOrder(first, second);
  }

  @Test
  void aRequestsPhasesAreTimedAndClosingTheClientForgetsIt() {
    KafkaClients k = clients("");
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    long t = 5_000_000_000L;
    c.requestCreated("1", 7, (short) 0, true, t);
    c.bytesWritten("1", 512, t + 1_000, null);
    c.sendCompleted("1", 512, t + 2_000);
    c.responseStarted("1", t + 3_000_000);
    c.responseCompleted("1", 7, t + 3_500_000);

    var timers = meters.find("faultline.kafka.request.phase").functionTimers();
    assertThat(timers).as("phase timers of the client").isNotEmpty();
    assertThat(timers.stream().mapToDouble(FunctionTimer::count).sum()).isPositive();

    c.close();
    assertThat(k.clients()).isEmpty();
    assertThat(k.client(null, a.selector(), null, null)).as("forgotten").isNull();
  }

  @Test
  void requestsToTwoNodesWithTheirEventsInterleavedAreEachTimedOnTheirOwnNode() {
    KafkaClients k = clients("");
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    long t = 5_000_000_000L;
    // Two requests in flight to each node, as an I/O thread sees them; the ids are equal strings
    // but new instances at each event, as NetworkClient and KafkaChannel may hand them.
    for (int i = 0; i < 2; i++) {
      c.requestCreated(new String("1"), 10 + i, (short) 0, true, t);
      c.requestCreated(new String("2"), 20 + i, (short) 0, true, t);
      c.bytesWritten(new String("1"), 512, t, null);
      c.sendCompleted(new String("1"), 512, t);
      c.bytesWritten(new String("2"), 512, t, null);
      c.sendCompleted(new String("2"), 512, t);
    }
    for (int i = 0; i < 2; i++) {
      c.responseStarted(new String("2"), t + 50_000_000);
      c.responseStarted(new String("1"), t + 3_000_000);
      c.responseCompleted(new String("1"), 10 + i, t + 3_000_000);
      c.responseCompleted(new String("2"), 20 + i, t + 50_000_000);
    }

    for (String node : List.of("1", "2")) {
      FunctionTimer response =
          meters
              .find("faultline.kafka.request.phase")
              .tag("phase", "response_incl_delivery")
              .tag("node.id", node)
              .functionTimer();
      assertThat(response).as("node %s's response timer", node).isNotNull();
      assertThat(response.count()).as("node %s's requests", node).isEqualTo(2);
      assertThat(response.totalTime(TimeUnit.MILLISECONDS) / 2)
          .as("node %s's response time", node)
          .isCloseTo(node.equals("1") ? 3 : 50, within(0.1));
    }
  }

  @Test
  void withPhasesOffAClientTimesNothing() {
    KafkaClients k = clients("kafka.phases=off");
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    c.requestCreated("1", 7, (short) 0, true, 1_000);
    c.sendCompleted("1", 512, 2_000);
    c.responseCompleted("1", 7, 3_000);
    assertThat(meters.find("faultline.kafka.request.phase").functionTimers()).isEmpty();
  }

  @Test
  void anOpenedConnectionIsWatchedUntilItClosesAndCanBeAskedToRecycle() throws Exception {
    KafkaClients k = clients("");
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    try (Loopback link = Loopback.open()) {
      SocketChannel socket = link.socket();

      c.channelOpened("1", socket, true, true, true);
      assertThat(k.connections()).hasSize(1);
      String key = k.connections().keySet().iterator().next();
      assertThat(key).startsWith("producer-1#").endsWith("/1");
      assertThat(k.connections().get(key).remote().getPort()).isEqualTo(link.port());

      assertThat(k.recycle(key, "in a test")).as("asked").isTrue();
      assertThat(c.takeRecycleRequests()).containsExactly("1");
      assertThat(c.takeRecycleRequests()).as("taken once").isEmpty();

      c.channelClosed("1", true, true);
      assertThat(k.connections()).isEmpty();
      assertThat(k.recycle(key, "after its close")).as("no longer known").isFalse();
    }
  }

  @Test
  void deliveryIsSampledWhereTheWireCarriesTheRequestsBytesAsTheyAre() throws Exception {
    KafkaClients k = clients("", new AckingTcpInfoReader());
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    try (Loopback plaintext = Loopback.open();
        Loopback sasl = Loopback.open();
        Loopback early = Loopback.open();
        SelectorKey transport = SelectorKey.open()) {
      Object plainLayer = new PlaintextTransportLayer(transport.key());
      c.channelOpened("1", plaintext.socket(), true, false, true);
      c.channelOpened("2", sasl.socket(), true, false, false);

      assertThat(c.samplesDelivery("1")).as("PLAINTEXT, seen opening").isTrue();
      assertThat(c.samplesDelivery("2")).as("its exchange first: not before a send").isFalse();
      send(c, "2", 7, plainLayer);
      assertThat(c.samplesDelivery("2")).as("SASL_PLAINTEXT, after its first send").isTrue();
      c.bytesWritten("3", 100, 1, plainLayer);
      c.sendCompleted("3", 100, 2);
      c.sawChannel("3", early.socket());
      assertThat(c.samplesDelivery("3")).as("opened before the weave, adopted").isTrue();
    }
  }

  @Test
  void tlsConnectionsHaveTheirDeliverySampledOnTheirRecords() throws Exception {
    KafkaClients k = clients("", new AckingTcpInfoReader());
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    try (Loopback tls = Loopback.open();
        Loopback early = Loopback.open();
        SelectorKey transport = SelectorKey.open()) {
      Object tlsLayer =
          SslTransportLayer.create(
              "2", transport.key(), SSLContext.getDefault().createSSLEngine(), null);
      c.channelOpened("2", tls.socket(), true, false, false);
      c.recordBytesWritten("2", 541);
      send(c, "2", 7, tlsLayer);
      c.sawChannel("4", early.socket());

      assertThat(c.samplesDelivery("2")).as("TLS, after its first send").isTrue();
      assertThat(c.samplesDelivery("4")).as("TLS, adopted").isTrue();
    }
  }

  @Test
  void anotherTransportLayerHasItsDeliveryMergedIntoTheResponse() throws Exception {
    KafkaClients k = clients("", new AckingTcpInfoReader());
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    try (Loopback other = Loopback.open();
        Loopback early = Loopback.open();
        SelectorKey transport = SelectorKey.open()) {
      // A layer of its own (here a wrapper of PLAINTEXT's): what it writes is not known.
      Object ownLayer = new PlaintextTransportLayer(transport.key()) {};
      c.channelOpened("2", other.socket(), true, false, false);
      send(c, "2", 7, ownLayer);
      c.sawChannel("4", early.socket());

      assertThat(c.samplesDelivery("2")).isFalse();
      assertThat(c.samplesDelivery("4")).as("adopted").isFalse();
      long t = 5_000_000_000L;
      c.requestCreated("2", 8, (short) 0, true, t);
      c.bytesWritten("2", 512, t + 1_000, ownLayer);
      c.sendCompleted("2", 512, t + 2_000);
      c.responseStarted("2", t + 3_000_000);
      c.responseCompleted("2", 8, t + 3_500_000);
      assertThat(
              meters
                  .find("faultline.kafka.request.phase")
                  .tag("phase", "response_incl_delivery")
                  .functionTimer()
                  .count())
          .as("requests still timed, delivery merged")
          .isEqualTo(2);
    }
  }

  /** One request on {@code node}, written through {@code transportLayer} and answered. */
  private static void send(KafkaClient c, String node, int correlation, Object transportLayer) {
    long t = 1_000_000_000L * correlation;
    c.requestCreated(node, correlation, (short) 0, true, t);
    c.bytesWritten(node, 512, t + 1_000, transportLayer);
    c.sendCompleted(node, 512, t + 2_000);
    c.sawChannel(node, null);
    c.responseStarted(node, t + 3_000_000);
    c.responseCompleted(node, correlation, t + 3_500_000);
  }

  /** A selection key of an unconnected channel: what a transport layer is made with. */
  private record SelectorKey(java.nio.channels.Selector selector, SocketChannel channel)
      implements AutoCloseable {
    static SelectorKey open() throws java.io.IOException {
      SocketChannel channel = SocketChannel.open();
      channel.configureBlocking(false);
      java.nio.channels.Selector selector = java.nio.channels.Selector.open();
      channel.register(selector, 0);
      return new SelectorKey(selector, channel);
    }

    java.nio.channels.SelectionKey key() {
      return channel.keyFor(selector);
    }

    @Override
    public void close() throws java.io.IOException {
      channel.close();
      selector.close();
    }
  }

  @Test
  void theWireFormatIsKnownByTheTransportLayersExactClass() throws Exception {
    try (SelectorKey transport = SelectorKey.open()) {
      assertThat(WireFormat.of(new PlaintextTransportLayer(transport.key())))
          .isEqualTo(WireFormat.REQUEST_BYTES);
      assertThat(
              WireFormat.of(
                  SslTransportLayer.create(
                      "1", transport.key(), SSLContext.getDefault().createSSLEngine(), null)))
          .isEqualTo(WireFormat.TLS_RECORDS);
      assertThat(WireFormat.of(new PlaintextTransportLayer(transport.key()) {}))
          .isEqualTo(WireFormat.OTHER);
      assertThat(WireFormat.of(null)).as("field unread").isEqualTo(WireFormat.OTHER);
    }
  }

  @Test
  void onlyPlaintextChannelsCarryRequestBytesAlone() {
    ListenerName listener = ListenerName.forSecurityProtocol(SecurityProtocol.PLAINTEXT);
    assertThat(KafkaClients.writesRequestBytesOnly(new PlaintextChannelBuilder(listener))).isTrue();
    // Any other builder (SSL, SASL, a wrapper of the plaintext one) may write more than requests.
    assertThat(KafkaClients.writesRequestBytesOnly(new PlaintextChannelBuilder(listener) {}))
        .isFalse();
    assertThat(KafkaClients.writesRequestBytesOnly(null)).as("field unread").isFalse();
  }

  @Test
  void aConnectionOpenedBeforeTheWeaveIsAdoptedOnceAtItsFirstSend() throws Exception {
    KafkaClients k = clients("");
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    try (Loopback link = Loopback.open()) {
      SocketChannel socket = link.socket();

      c.sawChannel("1", "not a socket");
      assertThat(k.connections()).isEmpty();
      c.sawChannel("1", socket);
      c.sawChannel("1", socket);
      assertThat(k.connections()).as("adopted once").hasSize(1);
      c.channelOpened("2", socket, true, true, true);
      c.sawChannel("2", socket);
      assertThat(k.connections()).as("node 2 seen opening: not adopted again").hasSize(2);
    }
  }

  @Test
  void closingAClientEndsItsConnections() throws Exception {
    KafkaClients k = clients("");
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    try (Loopback link = Loopback.open()) {
      SocketChannel socket = link.socket();
      c.channelOpened("1", socket, true, true, true);
      assertThat(k.connections()).hasSize(1);
      c.close();
      assertThat(k.connections()).isEmpty();
      assertThat(c.takeRecycleRequests()).isEmpty();
    }
  }

  @Test
  void theReconnectGateHoldsBackAConnectItDenies() {
    KafkaClients k = clients("kafka.stagger.max-connects-per-second=1");
    Parts a = new Parts();
    KafkaClient c = k.client(a.networkClient(), a.selector(), a.states(), "producer-1");
    long now = 10_000_000_000L;
    int admitted = 0;
    long heldBack = 0;
    for (int node = 0; node < 5; node++) {
      if (c.admitConnect(Integer.toString(node), now)) {
        admitted++;
      } else {
        heldBack = Math.max(heldBack, c.connectDelayNanos(Integer.toString(node), now));
      }
    }
    assertThat(admitted).as("connects admitted at one instant").isLessThan(5);
    assertThat(heldBack).as("a denied node's wait").isPositive();
  }
}
