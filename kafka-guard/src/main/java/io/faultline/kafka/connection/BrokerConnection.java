package io.faultline.kafka.connection;

import io.faultline.core.net.Outcome;
import io.faultline.core.net.TcpInfo;
import io.faultline.core.net.TcpInfoReader;
import io.faultline.core.net.TcpState;
import io.faultline.kafka.ClientType;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One client's TCP connection to one broker node, and its latest TCP facts. {@link #sample()} reads
 * TCP_INFO through the descriptor source it was given (the channel's fd from the agent, or a
 * look-up by address without it) and keeps the result for the gauges.
 *
 * <p>Thread-safe: sampled by a scheduler thread (every {@code kafka.tcp.interval}) or the client's
 * I/O thread (slow request); read by gauges from any thread.
 */
public final class BrokerConnection {

  private final ClientType clientType;
  private final String clientId;
  private final String nodeId;
  private final InetSocketAddress remote;
  private final Supplier<Outcome<Integer>> fd;
  private final TcpInfoReader reader;
  private final PeerWindowWatch peerWindow = new PeerWindowWatch();
  private volatile TcpFacts latest;
  private volatile String lastProblem;

  /**
   * @param clientType the client's kind
   * @param clientId its {@code client.id}
   * @param nodeId the node id ({@code "1"}; {@code "-1"} for a bootstrap connection; empty when
   *     unknown, as in a report without the agent)
   * @param remote the broker's address
   * @param fd where the socket's descriptor comes from (asked at every sample: a reconnect changes
   *     it)
   * @param reader the TCP_INFO reader
   */
  public BrokerConnection(
      ClientType clientType,
      String clientId,
      String nodeId,
      InetSocketAddress remote,
      Supplier<Outcome<Integer>> fd,
      TcpInfoReader reader) {
    this.clientType = Objects.requireNonNull(clientType, "clientType");
    this.clientId = clientId == null ? "" : clientId;
    this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
    this.remote = Objects.requireNonNull(remote, "remote");
    this.fd = Objects.requireNonNull(fd, "fd");
    this.reader = Objects.requireNonNull(reader, "reader");
  }

  /** Reads TCP_INFO now; keeps and returns the facts, or says why there are none. Never throws. */
  public Outcome<TcpFacts> sample() {
    try {
      Outcome<Integer> descriptor = fd.get();
      if (!descriptor.isAvailable()) {
        return unavailable(descriptor.reason().orElse("no descriptor"));
      }
      Outcome<TcpInfo> info = reader.read(descriptor.value().orElseThrow());
      if (!info.isAvailable()) {
        return unavailable(info.reason().orElse("TCP_INFO unreadable"));
      }
      TcpState state = info.value().orElseThrow().state();
      if (handshaking(state)) {
        // Options (window scaling) are negotiated by the handshake: before it ends TCP_INFO shows
        // none, and a reconnect to a broker that is down would read as "no window scaling".
        return unavailable("connecting: the TCP handshake has not completed");
      }
      if (state == TcpState.CLOSE) {
        // A connect the broker refused (up, not yet listening) ends here with no options either;
        // the client has not let go of the socket yet.
        return unavailable("not connected: the connection was refused or has closed");
      }
      TcpFacts previous = latest;
      TcpFacts facts =
          TcpFacts.of(info.value().orElseThrow(), previous == null ? null : previous.info());
      latest = facts;
      lastProblem = null;
      return Outcome.of(facts);
    } catch (RuntimeException e) {
      return unavailable("sampling failed: " + e);
    }
  }

  private static boolean handshaking(TcpState state) {
    return state == TcpState.SYN_SENT
        || state == TcpState.SYN_RECV
        || state == TcpState.NEW_SYN_RECV;
  }

  private Outcome<TcpFacts> unavailable(String reason) {
    lastProblem = reason;
    return Outcome.unavailable(reason);
  }

  /** The facts of the latest successful sample. */
  public Optional<TcpFacts> latest() {
    return Optional.ofNullable(latest);
  }

  /** Why the latest sample failed; empty when it succeeded. */
  public Optional<String> lastProblem() {
    return Optional.ofNullable(lastProblem);
  }

  /** What this connection's samples so far show about the broker's window. */
  PeerWindowWatch peerWindow() {
    return peerWindow;
  }

  /** The client's kind. */
  public ClientType clientType() {
    return clientType;
  }

  /** The client's {@code client.id}. */
  public String clientId() {
    return clientId;
  }

  /** The node id. */
  public String nodeId() {
    return nodeId;
  }

  /** The broker's address. */
  public InetSocketAddress remote() {
    return remote;
  }

  /** {@code node 2}, or {@code broker 10.0.0.7:9092} when the node id is unknown. */
  public String nodeLabel() {
    return nodeId.isEmpty()
        ? "broker " + remote.getHostString() + ":" + remote.getPort()
        : "node " + nodeId;
  }

  /** {@code client <id> → node <n> (<address>)}, the subject of this connection's findings. */
  public String subject() {
    return "client " + clientId + " → " + nodeLabel() + " (" + remote + ")";
  }
}
