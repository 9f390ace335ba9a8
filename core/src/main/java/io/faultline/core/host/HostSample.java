package io.faultline.core.host;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The counters the rate checks compare, read at one instant. Two samples some seconds apart turn
 * since-boot totals into rates.
 *
 * @param takenAt when the sample was read
 * @param counters the protocol counters of the network namespace read
 * @param netRxPerCpu NET_RX softirqs per CPU (host-wide), if readable
 */
public record HostSample(Instant takenAt, NetCounters counters, Optional<long[]> netRxPerCpu) {

  /** Validates. */
  public HostSample {
    Objects.requireNonNull(takenAt, "takenAt");
    Objects.requireNonNull(counters, "counters");
    Objects.requireNonNull(netRxPerCpu, "netRxPerCpu");
  }

  /** Reads a sample now. */
  public static HostSample take(ProcFs proc, Instant now) {
    return new HostSample(now, NetCounters.read(proc), Softirqs.readNetRx(proc));
  }
}
