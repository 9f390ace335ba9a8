package io.faultline.kafka.reconnect;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Decides, for one client, whether it may initiate a connection to a broker node now: a client that
 * <em>lost</em> its connection to a node waits a random delay drawn from {@code U(0, window)},
 * counted from the moment it first wants that node again, before connecting. Because it sits on
 * connection initiation ({@code NetworkClient.initiateConnect} / {@code Selector.connect}), not on
 * the reconnect backoff, it also spreads the burst after a preferred leader election, when every
 * client learns from metadata at the same moment that it needs the node again (the LINE Kafka
 * incident).
 *
 * <p>Safe by construction:
 *
 * <ul>
 *   <li>a client with no connected and no connecting node gets a connection at once (metadata is
 *       never starved);
 *   <li>the window is capped per client ({@link StaggerSettings});
 *   <li>a denied initiation is answered with the nanoseconds to wait, so the advice reports the
 *       node "not ready" with that delay the way {@code ClusterConnectionStates} backoff would and
 *       the client retries; nothing is dropped or reordered;
 *   <li>a delay that is stale (the client stopped wanting the node for longer than the window) is
 *       drawn again, so a want after a long pause is spread like a fresh one;
 *   <li>a client asking {@value #LATE_MILLIS} ms or more after its due time (its thread, or the
 *       whole JVM in a GC pause, was not running) is spread again over {@code U(0, lateness)}:
 *       otherwise every client of a JVM whose due time fell into one pause would connect in the
 *       same instant after it (seen in the storm lab: 40 reconnects within 100 ms after a 600 ms
 *       pause of a JVM holding 250 clients). Once per want, and only while the admission still
 *       comes within {@code window + 1 s} of the first want; otherwise it goes ahead at once.
 * </ul>
 *
 * <p>Optional start-up jitter delays the very first connection of a new client (a Kafka Connect
 * cluster starting every worker at once, the Tencent CKafka incident); the starvation guard applies
 * once it has run out. A process-wide {@link ConnectAdmission} limits the rate of all new
 * connections.
 *
 * <p>Not thread-safe: one gate per {@code NetworkClient}, called on the thread that drives it
 * (which Kafka already confines to one thread at a time).
 */
public final class ReconnectGate {

  private enum Status {
    NEW,
    CONNECTING,
    CONNECTED,
    LOST
  }

  private static final class NodeState {
    Status status = Status.NEW;
    boolean drawn;
    boolean deferredCounted;
    boolean spreadAgain;
    long wantSince;
    long dueAt;
    long lastWant;
  }

  private static final long STALE_EXTRA_NANOS = 1_000_000_000L;

  /** From this lateness on (ms), an admission is spread again; below it, it goes ahead. */
  static final long LATE_MILLIS = 50;

  private static final long LATE_NANOS = LATE_MILLIS * 1_000_000L;

  /** A spread-again admission still comes within the window plus this of the first want. */
  private static final long RESPREAD_BOUND_EXTRA_NANOS = 1_000_000_000L;

  private final StaggerSettings settings;
  private final ConnectAdmission admission;
  private final DoubleSupplier uniform;
  private final GateListener listener;
  private final Map<String, NodeState> nodes = new HashMap<>();
  private int connected;
  private int connecting;
  private boolean everConnected;
  private boolean startupDrawn;
  private long startupDueAt;

  /**
   * @param settings this client's window and jitter
   * @param admission the process-wide rate limit (shared)
   * @param uniform random numbers in {@code [0, 1)}; {@code null} for {@link ThreadLocalRandom}
   * @param listener hears decisions; {@code null} for none
   */
  public ReconnectGate(
      StaggerSettings settings,
      ConnectAdmission admission,
      DoubleSupplier uniform,
      GateListener listener) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.admission = admission == null ? ConnectAdmission.unlimited() : admission;
    this.uniform = uniform == null ? () -> ThreadLocalRandom.current().nextDouble() : uniform;
    this.listener = listener == null ? GateListener.NONE : listener;
  }

  /**
   * Asked before the client initiates a connection to {@code nodeId} ({@code
   * NetworkClient.initiateConnect(Node, long)}, or {@code Selector.connect(String, ...)}).
   *
   * @param nodeId the node id as the selector names it
   * @param nowNanos {@link System#nanoTime()}
   * @return 0 to connect now (the gate then counts the node as connecting), or how many nanoseconds
   *     to wait before asking again
   */
  public long admit(String nodeId, long nowNanos) {
    NodeState node = nodes.computeIfAbsent(nodeId, k -> new NodeState());
    if (node.status == Status.CONNECTING || node.status == Status.CONNECTED) {
      return 0; // the client knows better; the gate only holds back initiations
    }
    boolean startupPending = !everConnected && settings.startupJitterNanos() > 0;
    if (connected == 0 && connecting == 0 && !startupPending) {
      return allow(node, nodeId, nowNanos, GateListener.Outcome.FIRST, false);
    }
    if (!settings.enabled()) {
      return throttledOrAllow(node, nodeId, nowNanos, GateListener.Outcome.IMMEDIATE, false);
    }
    if (startupPending) {
      if (!startupDrawn) {
        startupDrawn = true;
        startupDueAt = nowNanos + draw(settings.startupJitterNanos());
      }
      if (nowNanos < startupDueAt) {
        return startupDueAt - nowNanos;
      }
      return throttledOrAllow(node, nodeId, nowNanos, GateListener.Outcome.AFTER_DELAY, false);
    }
    if (node.status == Status.NEW) {
      return throttledOrAllow(node, nodeId, nowNanos, GateListener.Outcome.IMMEDIATE, false);
    }
    // LOST: the stagger proper.
    long staleAfter = settings.windowNanos() + STALE_EXTRA_NANOS;
    if (!node.drawn || nowNanos - node.lastWant > staleAfter) {
      node.drawn = true;
      node.deferredCounted = false;
      node.spreadAgain = false;
      node.wantSince = nowNanos;
      node.dueAt = nowNanos + draw(settings.windowNanos());
    }
    node.lastWant = nowNanos;
    if (nowNanos < node.dueAt) {
      if (!node.deferredCounted) {
        node.deferredCounted = true;
        listener.attempt(nodeId, GateListener.Outcome.DEFERRED);
      }
      return node.dueAt - nowNanos;
    }
    long late = nowNanos - node.dueAt;
    // Once per want: a client that is always late (an application polling its consumer every few
    // hundred milliseconds) would otherwise be pushed to the bound.
    if (late >= LATE_NANOS && !node.spreadAgain) {
      node.spreadAgain = true;
      long again = draw(Math.min(late, settings.windowNanos()));
      long bound = node.wantSince + settings.windowNanos() + RESPREAD_BOUND_EXTRA_NANOS;
      if (again > 0 && nowNanos + again <= bound) {
        node.dueAt = nowNanos + again;
        return again;
      }
    }
    return throttledOrAllow(node, nodeId, nowNanos, GateListener.Outcome.AFTER_DELAY, true);
  }

  private long throttledOrAllow(
      NodeState node, String nodeId, long now, GateListener.Outcome outcome, boolean staggered) {
    long wait = admission.tryAcquire(now);
    if (wait > 0) {
      listener.attempt(nodeId, GateListener.Outcome.THROTTLED);
      return wait;
    }
    return allow(node, nodeId, now, outcome, staggered);
  }

  private long allow(
      NodeState node, String nodeId, long now, GateListener.Outcome outcome, boolean staggered) {
    if (staggered) {
      listener.delayed(nodeId, now - node.wantSince);
    }
    node.status = Status.CONNECTING;
    node.drawn = false;
    connecting++;
    listener.attempt(nodeId, outcome);
    return 0;
  }

  private long draw(long windowNanos) {
    if (windowNanos <= 0) {
      return 0;
    }
    double u = uniform.getAsDouble();
    if (!(u >= 0) || u >= 1) {
      u = 0; // a broken random source must not stall a connection
    }
    return (long) (u * windowNanos);
  }

  /** The connection to {@code nodeId} is established ({@code Selector} finished connecting). */
  public void connected(String nodeId, long nowNanos) {
    NodeState node = nodes.computeIfAbsent(nodeId, k -> new NodeState());
    if (node.status == Status.CONNECTING) {
      connecting--;
    }
    if (node.status != Status.CONNECTED) {
      connected++;
    }
    node.status = Status.CONNECTED;
    node.drawn = false;
    everConnected = true;
  }

  /**
   * The connection to {@code nodeId} closed or failed to open ({@code
   * NetworkClient.handleDisconnections}, or {@code initiateConnect} catching an {@code
   * IOException}). The next want of this node is a reconnect and is staggered.
   */
  public void disconnected(String nodeId, long nowNanos) {
    NodeState node = nodes.get(nodeId);
    if (node == null) {
      return;
    }
    if (node.status == Status.CONNECTING) {
      connecting--;
    } else if (node.status == Status.CONNECTED) {
      connected--;
    }
    node.status = Status.LOST;
    node.drawn = false;
  }

  /** Nodes connected now. */
  public int connectedNodes() {
    return connected;
  }

  /** Nodes connecting now. */
  public int connectingNodes() {
    return connecting;
  }

  /** This client's settings. */
  public StaggerSettings settings() {
    return settings;
  }
}
