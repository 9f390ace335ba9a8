package io.faultline.kafka.reconnect;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaConfigKeys;
import java.time.Duration;
import java.util.Map;

/**
 * One client's reconnect-gate settings: the window and start-up jitter from Faultline's
 * configuration, each capped to a fraction of the client's shortest timeout so a delay can never
 * time out a request, a batch or a group membership.
 *
 * @param enabled {@code kafka.stagger}
 * @param windowNanos the effective (capped) reconnect window
 * @param startupJitterNanos the effective (capped) start-up jitter, 0 when off
 * @param capNanos the cap that applied: fraction × shortest timeout
 */
public record StaggerSettings(
    boolean enabled, long windowNanos, long startupJitterNanos, long capNanos) {

  /** Kafka's {@code request.timeout.ms} default (producer, consumer, admin). */
  static final long DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

  /** Kafka's {@code delivery.timeout.ms} default (producer). */
  static final long DEFAULT_DELIVERY_TIMEOUT_MS = 120_000;

  /** Kafka's {@code max.poll.interval.ms} default (consumer). */
  static final long DEFAULT_MAX_POLL_INTERVAL_MS = 300_000;

  /** Settings with no stagger at all. */
  public static StaggerSettings off() {
    return new StaggerSettings(false, 0, 0, 0);
  }

  /**
   * The settings for one client.
   *
   * @param config Faultline's configuration
   * @param clientType the client's kind (which timeouts apply)
   * @param clientConfig the client's own configuration (values as Kafka accepts them: numbers or
   *     text)
   */
  public static StaggerSettings forClient(
      FaultlineConfig config, ClientType clientType, Map<String, ?> clientConfig) {
    return of(
        config.isFeatureEnabled(KafkaConfigKeys.STAGGER_FEATURE),
        config.get(KafkaConfigKeys.STAGGER_WINDOW),
        config.get(KafkaConfigKeys.STAGGER_STARTUP_JITTER),
        config.get(KafkaConfigKeys.STAGGER_MAX_TIMEOUT_FRACTION),
        clientType,
        clientConfig);
  }

  /** The settings from explicit values; see {@link #forClient}. */
  public static StaggerSettings of(
      boolean enabled,
      Duration window,
      Duration startupJitter,
      double maxTimeoutFraction,
      ClientType clientType,
      Map<String, ?> clientConfig) {
    long shortestMs = millis(clientConfig, "request.timeout.ms", DEFAULT_REQUEST_TIMEOUT_MS);
    if (clientType == ClientType.PRODUCER) {
      shortestMs =
          Math.min(
              shortestMs, millis(clientConfig, "delivery.timeout.ms", DEFAULT_DELIVERY_TIMEOUT_MS));
    }
    if (clientType == ClientType.CONSUMER) {
      shortestMs =
          Math.min(
              shortestMs,
              millis(clientConfig, "max.poll.interval.ms", DEFAULT_MAX_POLL_INTERVAL_MS));
    }
    double fraction = maxTimeoutFraction > 0 && maxTimeoutFraction <= 1 ? maxTimeoutFraction : 0.25;
    long cap = (long) (shortestMs * 1_000_000L * fraction);
    long w = Math.min(Math.max(0, window.toNanos()), cap);
    long j = Math.min(Math.max(0, startupJitter.toNanos()), cap);
    return new StaggerSettings(enabled, enabled ? w : 0, enabled ? j : 0, cap);
  }

  private static long millis(Map<String, ?> config, String key, long defaultValue) {
    Object v = config == null ? null : config.get(key);
    if (v instanceof Number n) {
      return n.longValue() > 0 ? n.longValue() : defaultValue;
    }
    if (v instanceof String s) {
      try {
        long parsed = Long.parseLong(s.trim());
        return parsed > 0 ? parsed : defaultValue;
      } catch (NumberFormatException e) {
        return defaultValue;
      }
    }
    return defaultValue;
  }
}
