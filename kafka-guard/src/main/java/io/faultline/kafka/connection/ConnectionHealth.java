package io.faultline.kafka.connection;

import io.faultline.core.finding.Finding;
import io.faultline.kafka.KafkaFindingTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns one connection's {@link TcpFacts} into findings: {@code KAFKA_WINDOW_SCALING_OFF} (with the
 * throughput ceiling, window / RTT) and {@code KAFKA_PEER_WINDOW_COLLAPSED} (the broker's window
 * under a few segments while this side has data waiting or is window-limited). Stateless.
 */
final class ConnectionHealth {

  /** A peer window below this many segments counts as collapsed. */
  public static final int COLLAPSED_WINDOW_SEGMENTS = 4;

  /** Without window scaling no window exceeds this. */
  public static final long UNSCALED_MAX_WINDOW = 65_535;

  private ConnectionHealth() {}

  /** The findings {@code facts} show for {@code connection}; empty when it looks healthy. */
  public static List<Finding> evaluate(BrokerConnection connection, TcpFacts facts) {
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
    long mss = Math.max(1, info.sndMss());
    if (info.sndWnd().isPresent() && info.sndWnd().getAsLong() < COLLAPSED_WINDOW_SEGMENTS * mss) {
      long notSent = info.notsentBytes().orElse(0);
      double rwndLimited = facts.rwndLimitedShare().orElse(0);
      if (notSent > 0 || rwndLimited > 0.5) {
        long window = info.sndWnd().getAsLong();
        findings.add(
            Finding.of(KafkaFindingTypes.KAFKA_PEER_WINDOW_COLLAPSED, connection.subject())
                .evidence("snd_wnd_bytes", window)
                .evidence("mss_bytes", mss)
                .evidence("notsent_bytes", notSent)
                .evidence("rwnd_limited_share", round(rwndLimited))
                .evidence("rtt_ms", round(rttMs))
                .message(
                    String.format(
                        Locale.ROOT,
                        "The broker (%s) advertises a %d-byte window (%.1f segments) while %d bytes wait"
                            + " to be sent: about one RTT (%.2f ms) per %d bytes.",
                        connection.nodeLabel(),
                        window,
                        (double) window / mss,
                        notSent,
                        rttMs,
                        window))
                .build());
      }
    }
    return findings;
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
