package io.faultline.kafka.config;

/**
 * What a client's link to its brokers carries: the round-trip time and the throughput it should
 * reach (a target, or a measured delivery rate).
 *
 * @param rttMicros round-trip time, microseconds
 * @param bytesPerSecond target or measured throughput, bytes per second
 */
public record LinkMeasurement(long rttMicros, double bytesPerSecond) {

  /** Rejects what cannot be a measurement, with a message naming the fix. */
  public LinkMeasurement {
    if (rttMicros <= 0) {
      throw new IllegalArgumentException(
          "rttMicros must be positive (it is " + rttMicros + "): pass the measured RTT in µs");
    }
    if (!(bytesPerSecond > 0)) {
      throw new IllegalArgumentException(
          "bytesPerSecond must be positive (it is " + bytesPerSecond + "): pass a target rate");
    }
  }

  /** From megabits per second (link speeds are quoted that way) and milliseconds of RTT. */
  public static LinkMeasurement ofMbps(double megabitsPerSecond, double rttMillis) {
    return new LinkMeasurement(Math.round(rttMillis * 1000), megabitsPerSecond * 1_000_000 / 8);
  }

  /** The bandwidth-delay product: bytes in flight needed to fill the link. */
  public long bdpBytes() {
    return (long) Math.ceil(bytesPerSecond * rttMicros / 1_000_000.0);
  }

  /** The most a window of {@code windowBytes} carries per second over this RTT. */
  public double ceilingFor(long windowBytes) {
    return windowBytes * 1_000_000.0 / rttMicros;
  }
}
