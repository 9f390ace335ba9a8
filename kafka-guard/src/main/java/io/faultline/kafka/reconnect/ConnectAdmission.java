package io.faultline.kafka.reconnect;

/**
 * A process-wide limit on new broker connections: a token bucket refilled at {@code
 * kafka.stagger.max-connects-per-second}, holding at most one second's worth. Shared by every
 * client's {@link ReconnectGate}; thread-safe.
 */
public final class ConnectAdmission {

  private static final long SECOND = 1_000_000_000L;

  private final int perSecond;
  private double tokens;
  private long refilledAt;
  private boolean started;

  /** A bucket of {@code perSecond} connections per second; 0 or less means unlimited. */
  public ConnectAdmission(int perSecond) {
    this.perSecond = Math.max(0, perSecond);
    this.tokens = this.perSecond;
  }

  /** No limit. */
  public static ConnectAdmission unlimited() {
    return new ConnectAdmission(0);
  }

  /** Whether a limit applies. */
  public boolean isLimited() {
    return perSecond > 0;
  }

  /**
   * Takes one token if there is one.
   *
   * @param nowNanos {@link System#nanoTime()}
   * @return 0 when the connection may start now, else the nanoseconds until a token is due
   */
  public synchronized long tryAcquire(long nowNanos) {
    if (perSecond == 0) {
      return 0;
    }
    if (!started) {
      started = true;
      refilledAt = nowNanos;
    } else if (nowNanos > refilledAt) {
      tokens = Math.min(perSecond, tokens + (double) (nowNanos - refilledAt) * perSecond / SECOND);
      refilledAt = nowNanos;
    }
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, (long) Math.ceil((1 - tokens) * SECOND / perSecond));
  }
}
