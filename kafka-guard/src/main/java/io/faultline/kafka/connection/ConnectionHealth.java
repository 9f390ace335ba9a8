package io.faultline.kafka.connection;

import io.faultline.core.finding.Finding;
import io.faultline.kafka.KafkaFindingTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns one connection's {@link TcpFacts} into findings: {@code KAFKA_WINDOW_SCALING_OFF} (with the
 * throughput ceiling, window / RTT) and {@code KAFKA_PEER_WINDOW_COLLAPSED} (the broker's window
 * held small, in bytes, while data waits, for long enough and without ever opening past 64 KiB: see
 * {@link PeerWindowWatch}). Stateless.
 */
final class ConnectionHealth {

  /** Without window scaling no window exceeds this. */
  static final long UNSCALED_MAX_WINDOW = PeerWindowWatch.UNSCALED_MAX_WINDOW;

  private ConnectionHealth() {}

  /**
   * The findings one sample shows for {@code connection}: only what a single sample can prove (a
   * handshake without window scaling). A collapsed peer window needs several samples ({@link
   * PeerWindowWatch}); the {@link ConnectionMonitor} has them.
   */
  static List<Finding> evaluate(BrokerConnection connection, TcpFacts facts) {
    return evaluate(connection, facts, Optional.empty());
  }

  /**
   * The findings {@code facts} show for {@code connection}, with what the connection's samples so
   * far say about its peer window; empty when it looks healthy.
   */
  static List<Finding> evaluate(
      BrokerConnection connection, TcpFacts facts, Optional<PeerWindowWatch.Collapse> collapse) {
    List<Finding> findings = new ArrayList<>();
    var info = facts.info();
    double rttMs = info.rttMicros() / 1000.0;
    if (!facts.windowScaling()) {
      long window = info.sndWnd().orElse(UNSCALED_MAX_WINDOW);
      double ceiling = info.rttMicros() > 0 ? window * 1_000_000.0 / info.rttMicros() : -1;
      Finding.Builder f =
          Finding.of(KafkaFindingTypes.KAFKA_WINDOW_SCALING_OFF, connection.subject())
              .evidence("window_bytes", window)
              .evidence("window_reported_by_kernel", info.sndWnd().isPresent())
              .evidence("rtt_ms", round(rttMs))
              .evidence("ceiling_bytes_per_second", Math.round(ceiling));
      info.deliveryRate().ifPresent(r -> f.evidence("delivery_rate_bytes_per_second", r));
      findings.add(
          f.message(
                  String.format(
                      Locale.ROOT,
                      "Connection to %s negotiated no window scaling: window %d bytes over"
                          + " %.2f ms RTT caps it at %s.",
                      connection.nodeLabel(),
                      window,
                      rttMs,
                      ceiling < 0 ? "window / RTT (no RTT yet)" : perSecond(ceiling)))
              .build());
    }
    collapse.ifPresent(
        c ->
            findings.add(
                Finding.of(KafkaFindingTypes.KAFKA_PEER_WINDOW_COLLAPSED, connection.subject())
                    .evidence("snd_wnd_bytes", c.window())
                    .evidence("max_window_bytes", c.maxWindow())
                    .evidence("notsent_bytes", c.waiting())
                    .evidence("bdp_bytes", c.bdpBytes())
                    .evidence("starved_samples", c.samples())
                    .evidence("starved_seconds", round(c.seconds()))
                    .evidence("idle_samples", c.idleSamples())
                    .evidence("rwnd_limited_share", round(c.rwndLimitedShare()))
                    .evidence("rtt_ms", round(rttMs))
                    .message(
                        String.format(
                            Locale.ROOT,
                            "The broker (%s) advertises a %d-byte window while %d bytes wait and the"
                                + " path carries about %d bytes per RTT (%.2f ms); over %d samples"
                                + " (%.0f s) the window never exceeded %d bytes, so it is not the"
                                + " broker catching up but a window scale that does not work.",
                            connection.nodeLabel(),
                            c.window(),
                            c.waiting(),
                            c.bdpBytes(),
                            rttMs,
                            c.samples(),
                            c.seconds(),
                            c.maxWindow()))
                    .build()));
    return findings;
  }

  /** The finding of a stalled link ({@link LinkStall}) on {@code connection}. */
  static Finding linkStalled(BrokerConnection connection, LinkStall.Stall stall) {
    return Finding.of(KafkaFindingTypes.KAFKA_BROKER_LINK_STALLED, connection.subject())
        .evidence("silent_ms", stall.silentMillis())
        .evidence("unacked_segments", stall.unacked())
        .evidence("retransmits", stall.retransmits())
        .evidence("rto_ms", stall.rtoMillis())
        .message(
            String.format(
                Locale.ROOT,
                "Nothing sent to %s has been acknowledged for %.1f s: %d segments are in flight"
                    + " and the kernel has retransmitted the oldest %d times (timeout now %d ms)."
                    + " Packets to or from the broker are dropped on the way: the broker may not"
                    + " have received these requests.",
                connection.nodeLabel(),
                stall.silentMillis() / 1000.0,
                stall.unacked(),
                stall.retransmits(),
                stall.rtoMillis()))
        .build();
  }

  /** A rate as {@code 320.0 KiB/s}. */
  static String perSecond(double bytesPerSecond) {
    if (bytesPerSecond >= 1 << 20) {
      return String.format(Locale.ROOT, "%.1f MiB/s", bytesPerSecond / (1 << 20));
    }
    return String.format(Locale.ROOT, "%.1f KiB/s", bytesPerSecond / 1024);
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }
}
