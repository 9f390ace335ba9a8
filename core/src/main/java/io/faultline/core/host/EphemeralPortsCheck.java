package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Severity;
import java.util.List;
import java.util.Optional;

/**
 * TIME_WAIT plus open TCP sockets ({@code /proc/net/sockstat}) against the size of {@code
 * ip_local_port_range}: what ran out in the Elastic Beanstalk port exhaustion. Per network
 * namespace.
 *
 * <p>The share is an upper bound: a port is only exhausted per destination, and {@code inuse}
 * counts listeners and inbound sockets too. It is the right order of magnitude for a proxy or
 * client that talks to a few upstreams, which is where the error appears.
 */
final class EphemeralPortsCheck implements HostCheck {

  @Override
  public String name() {
    return "ephemeral ports";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.NETWORK_NAMESPACE;
  }

  @Override
  public CheckResult run(DoctorContext context) {
    ProcFs proc = context.proc();
    Optional<PortBudget> read = PortBudget.read(proc);
    if (read.isEmpty()) {
      return CheckResult.unknown(
          name(), scope(), "cannot read ip_local_port_range or sockstat under " + proc.root());
    }
    PortBudget budget = read.get();
    long inuse = budget.inUse();
    long tw = budget.timeWait();
    long size = budget.ports();
    long used = tw + inuse;
    double share = size == 0 ? 1.0 : (double) used / size;
    String reuse = budget.twReuseText();
    String evidence =
        String.format(
            "port range %d-%d (%d ports), TIME_WAIT=%d, in use=%d (%.0f%%), tcp_tw_reuse=%s",
            budget.rangeLow(), budget.rangeHigh(), size, tw, inuse, share * 100, reuse);
    DoctorOptions o = context.options();
    if (share < o.portsWarnRatio()) {
      return CheckResult.of(name(), scope(), evidence, List.of(), List.of());
    }
    Finding finding =
        Finding.of(HostFindingTypes.EPHEMERAL_PORTS_LOW, "net.ipv4.ip_local_port_range")
            .severity(share >= o.portsCriticalRatio() ? Severity.CRITICAL : Severity.WARNING)
            .message(
                String.format(
                    "%d TIME_WAIT + %d open TCP sockets = %.0f%% of the %d ephemeral ports;"
                        + " tcp_tw_reuse=%s%s",
                    tw,
                    inuse,
                    share * 100,
                    size,
                    reuse,
                    budget.outboundReusesTimeWait()
                        ? ""
                        : " (outbound connects cannot reuse TIME_WAIT)"))
            .evidence("time_wait", tw)
            .evidence("inuse", inuse)
            .evidence("port_range_size", size)
            .evidence("share", Math.round(share * 1000) / 1000.0)
            .evidence("net.ipv4.tcp_tw_reuse", reuse)
            .build();
    return CheckResult.of(name(), scope(), evidence, List.of(finding), List.of());
  }
}
