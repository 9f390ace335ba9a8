package io.faultline.kafka.reconnect;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Spreads reconnects without the agent: gives each client instance its own random {@code
 * reconnect.backoff.max.ms} (by default in [1 s, 5 s]) and makes sure the maximum is well above
 * {@code reconnect.backoff.ms}, so Kafka's exponential backoff has its ±20 % jitter.
 *
 * <p><b>The no-jitter trap.</b> When only {@code reconnect.backoff.ms} is set, Kafka makes {@code
 * reconnect.backoff.max.ms} equal to it, and an exponential backoff whose maximum equals its start
 * is a constant with no jitter: every client retries in lockstep. This helper always sets both.
 *
 * <p><b>What it cannot spread.</b> The backoff only paces <em>retries</em> of a connection the
 * client keeps wanting. After a broker restart the biggest burst comes later, when preferred leader
 * election hands leadership back: every client learns from the same metadata at the same moment
 * that it needs the node again, their backoffs long expired, and they all connect at once. No
 * backoff setting can spread that; the agent's {@link ReconnectGate} can, because it delays the
 * connection initiation itself by a random amount from the moment the client wants the node.
 *
 * <p>Nor can it spread a <b>short outage</b>. The backoff doubles from {@code reconnect.backoff.ms}
 * with every failed attempt, so the drawn maximum only matters once a client has failed often
 * enough to reach it: from 50 ms, about 7 failures for a 4 s maximum (some 13 s when each attempt
 * ends at a 1 s connection setup timeout). A broker back within a few seconds finds every client at
 * a small backoff, and they return within about a second of each other, with or without this
 * helper.
 *
 * <pre>{@code
 * Properties props = StaggeredBackoffConfig.defaults().apply(myProducerProps);
 * new KafkaProducer<>(props, ...);
 * }</pre>
 */
public final class StaggeredBackoffConfig {

  /** {@code reconnect.backoff.ms}. */
  public static final String RECONNECT_BACKOFF_MS = "reconnect.backoff.ms";

  /** {@code reconnect.backoff.max.ms}. */
  public static final String RECONNECT_BACKOFF_MAX_MS = "reconnect.backoff.max.ms";

  /** Kafka's default {@code reconnect.backoff.ms}. */
  public static final long KAFKA_DEFAULT_BACKOFF_MS = 50;

  private final long minMaxMs;
  private final long maxMaxMs;
  private final DoubleSupplier uniform;

  private StaggeredBackoffConfig(long minMaxMs, long maxMaxMs, DoubleSupplier uniform) {
    this.minMaxMs = minMaxMs;
    this.maxMaxMs = maxMaxMs;
    this.uniform = uniform;
  }

  /** Maximum backoff drawn per instance from [1 s, 5 s]. */
  public static StaggeredBackoffConfig defaults() {
    return between(Duration.ofSeconds(1), Duration.ofSeconds(5));
  }

  /**
   * Maximum backoff drawn per instance from {@code [low, high]}. Soft mistakes are clamped: a
   * negative bound becomes 0, {@code high < low} becomes {@code low}.
   */
  public static StaggeredBackoffConfig between(Duration low, Duration high) {
    return new StaggeredBackoffConfig(
        Math.max(0, low.toMillis()),
        Math.max(Math.max(0, low.toMillis()), high.toMillis()),
        () -> ThreadLocalRandom.current().nextDouble());
  }

  /** The same bounds with another random source (tests). */
  public StaggeredBackoffConfig withRandom(DoubleSupplier uniform) {
    return new StaggeredBackoffConfig(minMaxMs, maxMaxMs, uniform);
  }

  /**
   * A copy of {@code clientConfig} with this instance's backoff: {@code reconnect.backoff.ms} kept
   * (Kafka's 50 ms when unset) and {@code reconnect.backoff.max.ms} drawn from the bounds (kept
   * when the user set one above twice the start). Call once per client instance.
   */
  public Map<String, Object> apply(Map<String, ?> clientConfig) {
    Map<String, Object> copy = new HashMap<>(clientConfig == null ? Map.of() : clientConfig);
    long start = millis(copy.get(RECONNECT_BACKOFF_MS), KAFKA_DEFAULT_BACKOFF_MS);
    long userMax = millis(copy.get(RECONNECT_BACKOFF_MAX_MS), -1);
    long max;
    if (userMax >= 2 * start && userMax > 0) {
      max = userMax;
    } else {
      double u = uniform.getAsDouble();
      u = u >= 0 && u < 1 ? u : 0;
      max = minMaxMs + (long) (u * (maxMaxMs - minMaxMs + 1));
      max = Math.max(max, 2 * Math.max(1, start)); // keep the exponential, and with it the jitter
    }
    copy.put(RECONNECT_BACKOFF_MS, start);
    copy.put(RECONNECT_BACKOFF_MAX_MS, max);
    return copy;
  }

  /** {@link #apply(Map)} for {@link Properties}. */
  public Properties apply(Properties clientConfig) {
    Map<String, Object> map = new HashMap<>();
    clientConfig.forEach((k, v) -> map.put(String.valueOf(k), v));
    Properties out = new Properties();
    out.putAll(apply(map));
    return out;
  }

  private static long millis(Object value, long defaultValue) {
    if (value instanceof Number n) {
      return n.longValue();
    }
    if (value instanceof String s && !s.isBlank()) {
      try {
        return Long.parseLong(s.trim());
      } catch (NumberFormatException e) {
        return defaultValue;
      }
    }
    return defaultValue;
  }
}
