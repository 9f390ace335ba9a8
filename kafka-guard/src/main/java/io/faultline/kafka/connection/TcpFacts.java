package io.faultline.kafka.connection;

import io.faultline.core.net.TcpInfo;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The facts about one broker connection that explain a slow one, taken from a {@link TcpInfo}:
 * window scaling, RTT, windows, congestion window, retransmits, delivery rate and what limited the
 * sender. Values the running kernel does not report are absent, never zero.
 *
 * @param info the raw sample
 * @param rwndLimitedShare share of the busy time limited by the peer's window (since the previous
 *     sample when there was one, else over the connection's life)
 * @param sndbufLimitedShare share of the busy time limited by this side's send buffer, likewise
 */
public record TcpFacts(
    TcpInfo info, OptionalDouble rwndLimitedShare, OptionalDouble sndbufLimitedShare) {

  /** Facts from one sample, limited shares over the connection's life. */
  public static TcpFacts of(TcpInfo info) {
    return of(info, null);
  }

  /** Facts from {@code info}, limited shares over the time since {@code previous} (may be null). */
  public static TcpFacts of(TcpInfo info, TcpInfo previous) {
    return new TcpFacts(
        info,
        share(info.rwndLimitedMicros(), info.busyTimeMicros(), previous, true),
        share(info.sndbufLimitedMicros(), info.busyTimeMicros(), previous, false));
  }

  private static OptionalDouble share(
      OptionalLong limited, OptionalLong busy, TcpInfo previous, boolean rwnd) {
    if (limited.isEmpty() || busy.isEmpty()) {
      return OptionalDouble.empty();
    }
    long l = limited.getAsLong();
    long b = busy.getAsLong();
    if (previous != null
        && previous.busyTimeMicros().isPresent()
        && b >= previous.busyTimeMicros().getAsLong()) {
      OptionalLong prevLimited =
          rwnd ? previous.rwndLimitedMicros() : previous.sndbufLimitedMicros();
      if (prevLimited.isPresent() && b > previous.busyTimeMicros().getAsLong()) {
        l -= prevLimited.getAsLong();
        b -= previous.busyTimeMicros().getAsLong();
      }
    }
    return b <= 0
        ? OptionalDouble.empty()
        : OptionalDouble.of(Math.min(1.0, Math.max(0, (double) l / b)));
  }

  /** Whether window scaling was negotiated. */
  public boolean windowScaling() {
    return info.windowScalingNegotiated();
  }

  /** Smoothed RTT, microseconds. */
  public long rttMicros() {
    return info.rttMicros();
  }

  /** Congestion window in bytes (segments × MSS). */
  public long cwndBytes() {
    return info.sndCwnd() * info.sndMss();
  }

  /** Peer window / RTT, bytes per second; absent before kernel 5.4 or before an RTT. */
  public OptionalDouble ceilingBytesPerSecond() {
    return info.throughputCeilingBytesPerSecond();
  }

  /** One line for a report or a log. */
  public String describe() {
    StringBuilder b = new StringBuilder();
    b.append("wscale=")
        .append(windowScaling() ? info.sndWscale() + "," + info.rcvWscale() : "OFF")
        .append(" rtt=")
        .append(String.format(Locale.ROOT, "%.2fms", info.rttMicros() / 1000.0));
    info.sndWnd().ifPresent(v -> b.append(" snd_wnd=").append(v));
    info.rcvWnd().ifPresent(v -> b.append(" rcv_wnd=").append(v));
    b.append(" cwnd=").append(info.sndCwnd()).append("x").append(info.sndMss());
    b.append(" retrans=").append(info.totalRetrans());
    info.deliveryRate().ifPresent(v -> b.append(" delivery_rate=").append(v).append("B/s"));
    ceilingBytesPerSecond()
        .ifPresent(v -> b.append(String.format(Locale.ROOT, " ceiling=%.0fB/s", v)));
    rwndLimitedShare()
        .ifPresent(v -> b.append(String.format(Locale.ROOT, " rwnd_limited=%.0f%%", v * 100)));
    sndbufLimitedShare()
        .ifPresent(v -> b.append(String.format(Locale.ROOT, " sndbuf_limited=%.0f%%", v * 100)));
    return b.toString();
  }
}
