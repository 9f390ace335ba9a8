package io.faultline.core.host;

import io.faultline.core.config.FaultlineConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * The doctor's thresholds. {@link #defaults()} takes every value from {@link HostConfigKeys}; the
 * command line (or the configuration) overrides them with the {@code with...} methods.
 *
 * @param expectedConnections see {@link HostConfigKeys#EXPECTED_CONNECTIONS}
 * @param targetBdpBytes see {@link HostConfigKeys#TARGET_BDP}
 * @param sample see {@link HostConfigKeys#SAMPLE}
 * @param portsWarnRatio see {@link HostConfigKeys#PORTS_WARN_RATIO}
 * @param portsCriticalRatio see {@link HostConfigKeys#PORTS_CRITICAL_RATIO}
 * @param netRxMaxShare see {@link HostConfigKeys#NET_RX_SHARE}
 * @param netRxMinRate see {@link HostConfigKeys#NET_RX_MIN_RATE}
 */
public record DoctorOptions(
    int expectedConnections,
    long targetBdpBytes,
    Duration sample,
    double portsWarnRatio,
    double portsCriticalRatio,
    double netRxMaxShare,
    int netRxMinRate) {

  /** Validates. */
  public DoctorOptions {
    Objects.requireNonNull(sample, "sample");
    if (sample.isNegative()) {
      throw new IllegalArgumentException("sample must not be negative: " + sample);
    }
  }

  /** The options as {@code config} sets them ({@code doctor.*} keys; defaults elsewhere). */
  public static DoctorOptions from(FaultlineConfig config) {
    return new DoctorOptions(
        config.get(HostConfigKeys.EXPECTED_CONNECTIONS),
        config.get(HostConfigKeys.TARGET_BDP),
        config.get(HostConfigKeys.SAMPLE),
        config.get(HostConfigKeys.PORTS_WARN_RATIO),
        config.get(HostConfigKeys.PORTS_CRITICAL_RATIO),
        config.get(HostConfigKeys.NET_RX_SHARE),
        config.get(HostConfigKeys.NET_RX_MIN_RATE));
  }

  /** The defaults declared by {@link HostConfigKeys}. */
  public static DoctorOptions defaults() {
    return new DoctorOptions(
        HostConfigKeys.EXPECTED_CONNECTIONS.defaultValue(),
        HostConfigKeys.TARGET_BDP.defaultValue(),
        HostConfigKeys.SAMPLE.defaultValue(),
        HostConfigKeys.PORTS_WARN_RATIO.defaultValue(),
        HostConfigKeys.PORTS_CRITICAL_RATIO.defaultValue(),
        HostConfigKeys.NET_RX_SHARE.defaultValue(),
        HostConfigKeys.NET_RX_MIN_RATE.defaultValue());
  }

  /** With another expected connection count. */
  public DoctorOptions withExpectedConnections(int value) {
    return new DoctorOptions(
        value,
        targetBdpBytes,
        sample,
        portsWarnRatio,
        portsCriticalRatio,
        netRxMaxShare,
        netRxMinRate);
  }

  /** With another target bandwidth-delay product. */
  public DoctorOptions withTargetBdpBytes(long value) {
    return new DoctorOptions(
        expectedConnections,
        value,
        sample,
        portsWarnRatio,
        portsCriticalRatio,
        netRxMaxShare,
        netRxMinRate);
  }

  /** With another sampling interval ({@link Duration#ZERO} for one sample). */
  public DoctorOptions withSample(Duration value) {
    return new DoctorOptions(
        expectedConnections,
        targetBdpBytes,
        value,
        portsWarnRatio,
        portsCriticalRatio,
        netRxMaxShare,
        netRxMinRate);
  }

  /** Whether two samples are taken. */
  public boolean sampling() {
    return !sample.isZero();
  }
}
