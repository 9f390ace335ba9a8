package io.faultline.kafka.broker;

import io.faultline.core.host.ClientNames;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client id each connection a Kafka broker accepted carries, as its requests arrive: {@link
 * #seen} is called for every request with the broker's connection id ({@code
 * localHost:localPort-remoteHost:remotePort-...}) and the request header's client id. The broker
 * side of {@code CLIENTS_WITHOUT_WINDOW_SCALING} names clients by it ({@link ClientNames}).
 *
 * <p>A request of a known connection with the same id costs one map lookup; a new connection is
 * parsed once. At most {@value #MAX_CONNECTIONS} connections are remembered (more are counted in
 * {@link #notRemembered()}), and a sweep forgets the closed ones ({@link #retainOnly}).
 */
public final class RequestClientIds implements ClientNames {

  /** Connections remembered at most: a broker's clients, with room to spare. */
  public static final int MAX_CONNECTIONS = 100_000;

  private static final RequestClientIds INSTANCE = new RequestClientIds(MAX_CONNECTIONS);

  private final int max;
  private final Map<String, Known> byConnectionId = new ConcurrentHashMap<>();
  private final Map<InetSocketAddress, String> byClient = new ConcurrentHashMap<>();
  private final AtomicLong notRemembered = new AtomicLong();

  private record Known(InetSocketAddress client, String clientId) {}

  RequestClientIds(int max) {
    this.max = max;
  }

  /** The broker's one registry, fed by the agent's advice. */
  public static RequestClientIds instance() {
    return INSTANCE;
  }

  /**
   * A request arrived on {@code connectionId} from {@code clientId}. Never throws; a connection id
   * of another shape is ignored.
   */
  public void seen(String connectionId, String clientId) {
    if (connectionId == null || clientId == null) {
      return;
    }
    Known known = byConnectionId.get(connectionId);
    if (known != null && known.clientId.equals(clientId)) {
      return;
    }
    InetSocketAddress client = known != null ? known.client : remoteOf(connectionId);
    if (client == null) {
      return;
    }
    if (known == null && byConnectionId.size() >= max) {
      notRemembered.incrementAndGet();
      return;
    }
    byConnectionId.put(connectionId, new Known(client, clientId));
    byClient.put(client, clientId);
  }

  @Override
  public String nameOf(InetSocketAddress client) {
    return byClient.get(client);
  }

  @Override
  public void retainOnly(Set<InetSocketAddress> open) {
    byConnectionId.values().removeIf(k -> !open.contains(k.client));
    byClient.keySet().retainAll(open);
  }

  /** Connections not remembered because {@value #MAX_CONNECTIONS} already were. */
  public long notRemembered() {
    return notRemembered.get();
  }

  /**
   * The remote end of a broker connection id: {@code localHost:localPort-remoteHost:remotePort-n}
   * up to Kafka 3.x, {@code ...-processor-n} from 4.0 (hosts are literal addresses, which hold no
   * {@code -}); null for another shape.
   */
  static InetSocketAddress remoteOf(String connectionId) {
    int first = connectionId.indexOf('-');
    int second = first < 0 ? -1 : connectionId.indexOf('-', first + 1);
    if (second < 0) {
      return null;
    }
    String remote = connectionId.substring(first + 1, second);
    int colon = remote.lastIndexOf(':');
    if (colon <= 0) {
      return null;
    }
    try {
      int port = Integer.parseInt(remote.substring(colon + 1));
      String host = remote.substring(0, colon);
      if (!isLiteral(host)) {
        return null; // never a name lookup on the broker's request path
      }
      return new InetSocketAddress(InetAddress.getByName(host), port);
    } catch (IllegalArgumentException | UnknownHostException e) {
      return null; // not a port, a port out of range, or not an address
    }
  }

  /** Whether {@code host} is an IPv4 or IPv6 literal (so resolving it makes no DNS query). */
  private static boolean isLiteral(String host) {
    if (host.isEmpty()) {
      return false;
    }
    if (host.indexOf(':') >= 0) {
      return true; // IPv6
    }
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if ((c < '0' || c > '9') && c != '.') {
        return false;
      }
    }
    return true;
  }
}
