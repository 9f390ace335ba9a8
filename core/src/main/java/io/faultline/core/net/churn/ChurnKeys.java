package io.faultline.core.net.churn;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigKeyCatalog;
import java.time.Duration;
import java.util.List;

/**
 * Configuration of connection-churn tracking (Elastic Beanstalk port exhaustion: ports exhausted by
 * TIME_WAIT).
 */
public final class ChurnKeys implements ConfigKeyCatalog {

  /** The feature and its on/off switch. */
  public static final String FEATURE = "net.churn";

  /** Turns connection-churn tracking on or off. */
  public static final ConfigKey<Boolean> ENABLED =
      ConfigKey.bool(
          FEATURE,
          true,
          FEATURE,
          "Count new outbound TCP connections per destination and warn when their rate would fill"
              + " the ephemeral port range with TIME_WAIT sockets.");

  /** How often rates are computed and the finding re-evaluated. */
  public static final ConfigKey<Duration> INTERVAL =
      ConfigKey.duration(
          "net.churn.interval",
          Duration.ofSeconds(10),
          FEATURE,
          "How often the connect rate per destination is computed and NET_CONNECTION_CHURN"
              + " re-evaluated.");

  /** Destinations counted apart; the rest are counted as "other". */
  public static final ConfigKey<Integer> MAX_DESTINATIONS =
      ConfigKey.integer(
          "net.churn.max-destinations",
          32,
          FEATURE,
          "Destinations (host:port) counted apart, first come first served; connections to any"
              + " further destination are counted under destination=other.");

  /** Share of the port range that projected TIME_WAIT sockets may take before a warning. */
  public static final ConfigKey<Double> PORT_SHARE =
      ConfigKey.decimal(
          "net.churn.port-share",
          0.5,
          FEATURE,
          "Warn when connect rate x 60 s (the sockets that rate keeps in TIME_WAIT) reaches this"
              + " share of ip_local_port_range; at 1.0 or more ports run out (critical).");

  /** Rates below this are never churn, whatever the port range. */
  public static final ConfigKey<Double> MIN_RATE =
      ConfigKey.decimal(
          "net.churn.min-rate",
          5.0,
          FEATURE,
          "New connections per second to one destination below which nothing is reported.");

  /** Consecutive intervals over the threshold before the finding is raised. */
  public static final ConfigKey<Integer> SUSTAINED_INTERVALS =
      ConfigKey.integer(
          "net.churn.sustained-intervals",
          3,
          FEATURE,
          "Consecutive intervals a destination must stay over the threshold before"
              + " NET_CONNECTION_CHURN is raised, so a burst at start-up is not reported.");

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public ChurnKeys() {}

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(ENABLED, INTERVAL, MAX_DESTINATIONS, PORT_SHARE, MIN_RATE, SUSTAINED_INTERVALS);
  }
}
