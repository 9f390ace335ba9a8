package io.faultline.kafka.connection;

import java.time.Duration;
import java.util.Optional;

/**
 * Follows one connection's peer window across samples and tells a crippled window scale from flow
 * control.
 *
 * <p>A crippled scale (the LINE Kafka incident: after a SYN-cookie handshake the broker used
 * another scale than it announced) keeps the window at a few KB for the connection's whole life,
 * however little the broker has to read. Flow control looks the same for a moment (a busy broker
 * lets its socket fill, so the window it offers shrinks, to about a KB on a veth) but the window
 * reopens as soon as the broker reads; and on loopback, where the MSS is 64 KB, an ordinary 128 KiB
 * window is "2 segments". So windows are judged in bytes, never in segments:
 *
 * <ul>
 *   <li>a sample is <em>starved</em> when the peer's window is below the path's bandwidth-delay
 *       product (the congestion window, or delivery rate × minimum RTT, whichever is larger) and
 *       data is held back by it: more bytes wait to be sent than the window holds, or half or more
 *       of the busy time since the previous sample was limited by the window;
 *   <li>the connection's window is <em>collapsed</em> when {@value #SAMPLES} consecutive samples
 *       over at least {@link #MIN_DURATION} were starved and no sample of the connection ever saw
 *       the window above {@value #UNSCALED_MAX_WINDOW} bytes: a working scale opens it past that
 *       whenever the broker has read what it was sent.
 * </ul>
 *
 * Thread-safe (the scheduler and a client's I/O thread may sample the same connection).
 */
final class PeerWindowWatch {

  /** Consecutive starved samples a collapse needs. */
  static final int SAMPLES = 3;

  /** How long the starved samples must span: flow control lasts about as long as a burst. */
  static final Duration MIN_DURATION = Duration.ofSeconds(10);

  /** The largest window a peer can advertise without a working scale. */
  static final long UNSCALED_MAX_WINDOW = 65_535;

  /**
   * What a collapse looks like, for the finding's evidence.
   *
   * @param window the peer's window now, bytes
   * @param waiting bytes waiting to be sent now
   * @param bdpBytes the path's bandwidth-delay product as this side estimates it
   * @param maxWindow the largest window seen on this connection
   * @param samples consecutive starved samples
   * @param seconds how long they span
   * @param idleSamples samples in which nothing waited (the broker had nothing of ours to read)
   * @param rwndLimitedShare the window-limited share of the busy time since the previous sample
   */
  record Collapse(
      long window,
      long waiting,
      long bdpBytes,
      long maxWindow,
      int samples,
      double seconds,
      int idleSamples,
      double rwndLimitedShare) {}

  private long maxWindow;
  private int idleSamples;
  private int starvedRun;
  private long starvedSinceNanos;

  /** One sample at {@code nowNanos}; a collapse when the samples so far show one. */
  synchronized Optional<Collapse> observe(TcpFacts facts, long nowNanos) {
    var info = facts.info();
    if (info.sndWnd().isEmpty()) {
      return Optional.empty(); // a kernel before 5.4 does not say: no judgement either way
    }
    long window = info.sndWnd().getAsLong();
    long waiting = info.notsentBytes().orElse(0);
    maxWindow = Math.max(maxWindow, window);
    if (waiting == 0) {
      idleSamples++;
    }
    if (!starved(facts)) {
      starvedRun = 0;
      return Optional.empty();
    }
    if (starvedRun++ == 0) {
      starvedSinceNanos = nowNanos;
    }
    long spanNanos = nowNanos - starvedSinceNanos;
    if (maxWindow > UNSCALED_MAX_WINDOW
        || starvedRun < SAMPLES
        || spanNanos < MIN_DURATION.toNanos()) {
      return Optional.empty();
    }
    return Optional.of(
        new Collapse(
            window,
            waiting,
            bdpBytes(facts),
            maxWindow,
            starvedRun,
            spanNanos / 1e9,
            idleSamples,
            facts.rwndLimitedShare().orElse(0)));
  }

  /**
   * Whether one sample shows data held back by a peer window smaller than the path could carry (see
   * the class comment); says nothing about why.
   */
  static boolean starved(TcpFacts facts) {
    var info = facts.info();
    if (info.sndWnd().isEmpty()) {
      return false;
    }
    long window = info.sndWnd().getAsLong();
    long waiting = info.notsentBytes().orElse(0);
    boolean heldBack = waiting > window || facts.rwndLimitedShare().orElse(0) >= 0.5;
    return heldBack && window < bdpBytes(facts);
  }

  /**
   * The path's bandwidth-delay product as this side sees it: the congestion window (what the path
   * took without loss), or the delivery rate over the minimum RTT when that is larger.
   */
  static long bdpBytes(TcpFacts facts) {
    var info = facts.info();
    long cwnd = info.sndCwnd() * Math.max(1, info.sndMss());
    long delivered = 0;
    if (info.deliveryRate().isPresent() && info.minRttMicros().isPresent()) {
      delivered = info.deliveryRate().getAsLong() * info.minRttMicros().getAsLong() / 1_000_000;
    }
    return Math.max(cwnd, delivered);
  }
}
