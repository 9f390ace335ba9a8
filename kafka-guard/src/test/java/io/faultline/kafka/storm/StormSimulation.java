package io.faultline.kafka.storm;

import io.faultline.kafka.reconnect.ConnectAdmission;
import io.faultline.kafka.reconnect.ReconnectGate;
import io.faultline.kafka.reconnect.StaggerSettings;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A discrete-event simulation of a reconnect storm against one broker listener, driving the real
 * {@link ReconnectGate} of every client on a virtual clock. Each client lost its connection to the
 * broker when it restarted; after a preferred leader election it learns, some time later, that it
 * needs the broker again, asks its gate, and sends a SYN when the gate lets it. The listener is
 * Linux's as far as a storm needs it: a SYN queue and an accept queue both capped by the listen
 * backlog (the listener's backlog capped by {@code somaxconn}), SYN cookies once the SYN queue is
 * full ({@code tcp_syncookies=1}), a SYN dropped when the accept queue is full (a listen overflow,
 * retried by the client on its SYN retransmission timer: 1 s, then 2, 4, 8 s), a final ACK dropped
 * when the accept queue is full (the SYN-ACK retransmitted after 1 s), and an acceptor that takes
 * connections off the queue at a fixed rate.
 *
 * <p>What it does not model: packet loss, the clients' own CPU, several listeners or brokers.
 */
final class StormSimulation {

  /** One scenario. */
  record Scenario(
      String name,
      int clients,
      int backlog,
      double acceptsPerSecond,
      double learnSpreadSeconds,
      double rttMillis,
      boolean gate,
      double windowSeconds,
      long seed) {}

  /** What one run produced. */
  record Result(
      Scenario scenario,
      int peakHandshakesPer100ms,
      int peakAcceptedPer100ms,
      long overflows,
      long synCookies,
      double secondsUntilAllBack,
      int connected) {}

  private static final long MS = 1_000_000L;
  private static final long S = 1_000_000_000L;
  private static final long[] SYN_RTO = {1 * S, 2 * S, 4 * S, 8 * S, 16 * S, 32 * S};

  private enum Kind {
    WANT,
    SYN,
    ACK,
    ACCEPT
  }

  private record Event(long at, long seq, Kind kind, int client, int attempt, boolean cookie)
      implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      int c = Long.compare(at, o.at);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  private final Scenario s;
  private final PriorityQueue<Event> events = new PriorityQueue<>();
  private final ReconnectGate[] gates;
  private final SplittableRandom random;
  private long seq;
  private int synQueue;
  private final ArrayDeque<Integer> acceptQueue = new ArrayDeque<>();
  private final long[] connectedAt;
  private final int[] handshakesPerBucket;
  private final int[] acceptedPerBucket;
  private long overflows;
  private long cookies;
  private boolean acceptorScheduled;

  private static final long HORIZON = 120 * S;
  private static final long BUCKET = 100 * MS;

  StormSimulation(Scenario scenario) {
    this.s = scenario;
    this.random = new SplittableRandom(scenario.seed());
    this.gates = new ReconnectGate[scenario.clients()];
    this.connectedAt = new long[scenario.clients()];
    Arrays.fill(connectedAt, -1);
    this.handshakesPerBucket = new int[(int) (HORIZON / BUCKET) + 1];
    this.acceptedPerBucket = new int[handshakesPerBucket.length];
    StaggerSettings settings =
        scenario.gate()
            ? new StaggerSettings(true, (long) (scenario.windowSeconds() * S), 0, (long) (7.5 * S))
            : StaggerSettings.off();
    for (int c = 0; c < scenario.clients(); c++) {
      SplittableRandom own = random.split();
      gates[c] = new ReconnectGate(settings, ConnectAdmission.unlimited(), own::nextDouble, null);
      // Connected to another broker the whole time, and to this one until it restarted.
      gates[c].connected("1", 0);
      gates[c].connected("2", 0);
      gates[c].disconnected("2", 0);
    }
  }

  /** Runs from the election (time 0) until every client is back or two minutes passed. */
  Result run() {
    for (int c = 0; c < s.clients(); c++) {
      long learn = (long) (random.nextDouble() * s.learnSpreadSeconds() * S);
      schedule(learn, Kind.WANT, c, 0, false);
    }
    while (!events.isEmpty()) {
      Event e = events.poll();
      if (e.at() > HORIZON) {
        break;
      }
      switch (e.kind()) {
        case WANT -> want(e);
        case SYN -> syn(e);
        case ACK -> ack(e);
        case ACCEPT -> acceptOne(e.at());
      }
    }
    long last = 0;
    int connected = 0;
    for (long t : connectedAt) {
      if (t >= 0) {
        connected++;
        last = Math.max(last, t);
      }
    }
    return new Result(
        s,
        Arrays.stream(handshakesPerBucket).max().orElse(0),
        Arrays.stream(acceptedPerBucket).max().orElse(0),
        overflows,
        cookies,
        connected == s.clients() ? last / 1e9 : Double.NaN,
        connected);
  }

  private void want(Event e) {
    long wait = gates[e.client()].admit("2", e.at());
    if (wait > 0) {
      // Kafka's client asks again when the delay the gate answered has passed.
      schedule(e.at() + wait, Kind.WANT, e.client(), 0, false);
      return;
    }
    schedule(e.at() + halfRtt(), Kind.SYN, e.client(), 0, false);
  }

  private void syn(Event e) {
    handshakesPerBucket[(int) (e.at() / BUCKET)]++;
    if (acceptQueue.size() >= s.backlog()) {
      overflows++; // the kernel drops the SYN; the client retransmits it
      retransmitSyn(e);
      return;
    }
    boolean cookie = synQueue >= s.backlog();
    if (cookie) {
      cookies++;
    } else {
      synQueue++;
    }
    schedule(e.at() + 2 * halfRtt(), Kind.ACK, e.client(), e.attempt(), cookie);
  }

  private void retransmitSyn(Event e) {
    int attempt = e.attempt();
    if (attempt < SYN_RTO.length) {
      schedule(e.at() + SYN_RTO[attempt], Kind.SYN, e.client(), attempt + 1, false);
    }
  }

  private void ack(Event e) {
    if (acceptQueue.size() >= s.backlog()) {
      overflows++; // the final ACK is dropped: the SYN-ACK goes again a second later
      schedule(e.at() + S, Kind.ACK, e.client(), e.attempt(), e.cookie());
      return;
    }
    if (!e.cookie()) {
      synQueue--;
    }
    acceptQueue.add(e.client());
    if (!acceptorScheduled) {
      acceptorScheduled = true;
      schedule(e.at() + acceptInterval(), Kind.ACCEPT, -1, 0, false);
    }
  }

  private void acceptOne(long now) {
    Integer client = acceptQueue.poll();
    if (client != null) {
      connectedAt[client] = now;
      acceptedPerBucket[(int) (now / BUCKET)]++;
      gates[client].connected("2", now);
    }
    if (acceptQueue.isEmpty()) {
      acceptorScheduled = false;
    } else {
      schedule(now + acceptInterval(), Kind.ACCEPT, -1, 0, false);
    }
  }

  private long acceptInterval() {
    return (long) (S / s.acceptsPerSecond());
  }

  private long halfRtt() {
    return (long) (s.rttMillis() * MS / 2);
  }

  private void schedule(long at, Kind kind, int client, int attempt, boolean cookie) {
    events.add(new Event(at, seq++, kind, client, attempt, cookie));
  }
}
