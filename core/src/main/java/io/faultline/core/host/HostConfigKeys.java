package io.faultline.core.host;

import io.faultline.core.config.ConfigKey;
import io.faultline.core.config.ConfigKeyCatalog;
import java.time.Duration;
import java.util.List;

/** The host doctor's thresholds. Each default is what {@link DoctorOptions#defaults()} uses. */
public final class HostConfigKeys implements ConfigKeyCatalog {

  /** The feature these keys belong to. */
  public static final String FEATURE = "doctor";

  /** Connections expected to arrive at once (e.g. every client reconnecting after a restart). */
  public static final ConfigKey<Integer> EXPECTED_CONNECTIONS =
      ConfigKey.integer(
          "doctor.expected-connections",
          10_000,
          FEATURE,
          "How many connection attempts this host should absorb at once, e.g. every client"
              + " reconnecting after a broker restart (the LINE Kafka incident saw 18,000)."
              + " somaxconn and tcp_max_syn_backlog below it are flagged.");

  /** The bandwidth-delay product the socket buffers must hold. */
  public static final ConfigKey<Long> TARGET_BDP =
      ConfigKey.size(
          "doctor.target-bdp",
          4L << 20,
          FEATURE,
          "Bandwidth x round-trip time of the longest path this host serves (225 Mbps x 200 ms is"
              + " about 5.4MiB). rmem_max, wmem_max and the tcp_rmem/tcp_wmem ceilings below it"
              + " are flagged.");

  /** Time between the two samples of the rate checks; 0s takes one sample. */
  public static final ConfigKey<Duration> SAMPLE =
      ConfigKey.duration(
          "doctor.sample",
          Duration.ZERO,
          FEATURE,
          "Time between the two samples the rate checks (listen overflows, SYN cookies, NET_RX"
              + " softirqs per CPU) compare; 0s takes one sample and those checks say so.");

  /** Share of the ephemeral port range in use that is a warning. */
  public static final ConfigKey<Double> PORTS_WARN_RATIO =
      ConfigKey.decimal(
          "doctor.ephemeral-ports.warn-ratio",
          0.5,
          FEATURE,
          "Share of ip_local_port_range taken by TIME_WAIT and open TCP sockets that is a"
              + " warning.");

  /** Share of the ephemeral port range in use that is critical. */
  public static final ConfigKey<Double> PORTS_CRITICAL_RATIO =
      ConfigKey.decimal(
          "doctor.ephemeral-ports.critical-ratio",
          0.8,
          FEATURE,
          "Share of ip_local_port_range taken by TIME_WAIT and open TCP sockets that is"
              + " critical.");

  /** Share of NET_RX softirqs on one CPU that is flagged. */
  public static final ConfigKey<Double> NET_RX_SHARE =
      ConfigKey.decimal(
          "doctor.net-rx.max-share",
          0.8,
          FEATURE,
          "Share of all NET_RX softirqs in the sample handled by one CPU that is flagged on a"
              + " multi-core host.");

  /** Minimum NET_RX rate for the softirq check to judge. */
  public static final ConfigKey<Integer> NET_RX_MIN_RATE =
      ConfigKey.integer(
          "doctor.net-rx.min-rate",
          1_000,
          FEATURE,
          "NET_RX softirqs per second below which the host is too idle for the per-CPU share to"
              + " mean anything.");

  @Override
  public List<ConfigKey<?>> keys() {
    return List.of(
        EXPECTED_CONNECTIONS,
        TARGET_BDP,
        SAMPLE,
        PORTS_WARN_RATIO,
        PORTS_CRITICAL_RATIO,
        NET_RX_SHARE,
        NET_RX_MIN_RATE);
  }
}
