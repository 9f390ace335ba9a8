package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@code net.core.somaxconn} (accept queue cap) and {@code net.ipv4.tcp_max_syn_backlog} (SYN
 * queue) against the connection burst the host should absorb. Both are per network namespace.
 */
final class ListenBacklogCheck implements HostCheck {

  @Override
  public String name() {
    return "listen backlog";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.NETWORK_NAMESPACE;
  }

  @Override
  public CheckResult run(DoctorContext context) {
    OptionalLong somaxconn = context.proc().sysctl("net.core.somaxconn");
    OptionalLong synBacklog = context.proc().sysctl("net.ipv4.tcp_max_syn_backlog");
    if (somaxconn.isEmpty() || synBacklog.isEmpty()) {
      return CheckResult.unknown(
          name(), scope(), "cannot read net.core.somaxconn or net.ipv4.tcp_max_syn_backlog");
    }
    int expected = context.options().expectedConnections();
    String evidence =
        "somaxconn="
            + somaxconn.getAsLong()
            + ", tcp_max_syn_backlog="
            + synBacklog.getAsLong()
            + ", expected burst="
            + expected;
    List<Finding> findings = new ArrayList<>();
    addIfSmall(findings, "net.core.somaxconn", somaxconn.getAsLong(), expected);
    addIfSmall(findings, "net.ipv4.tcp_max_syn_backlog", synBacklog.getAsLong(), expected);
    return CheckResult.of(name(), scope(), evidence, findings, List.of());
  }

  private static void addIfSmall(List<Finding> findings, String sysctl, long value, int expected) {
    if (value < expected) {
      findings.add(
          Finding.of(HostFindingTypes.LISTEN_BACKLOG_SMALL, sysctl)
              .message(
                  sysctl
                      + "="
                      + value
                      + " is below the expected burst of "
                      + expected
                      + " connection attempts")
              .evidence(sysctl, value)
              .evidence("expected_connections", expected)
              .build());
    }
  }
}
