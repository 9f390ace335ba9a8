package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.util.List;
import java.util.Optional;

/** Reports the congestion control in use (context for slow long-distance links). */
final class CongestionControlCheck implements HostCheck {

  @Override
  public String name() {
    return "congestion control";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.NETWORK_NAMESPACE;
  }

  @Override
  public CheckResult run(DoctorContext context) {
    Optional<String> algorithm = context.proc().sysctlText("net.ipv4.tcp_congestion_control");
    if (algorithm.isEmpty() || algorithm.get().isEmpty()) {
      return CheckResult.unknown(name(), scope(), "cannot read net.ipv4.tcp_congestion_control");
    }
    String available =
        context.proc().sysctlText("net.ipv4.tcp_available_congestion_control").orElse("unknown");
    Finding finding =
        Finding.of(HostFindingTypes.TCP_CONGESTION_CONTROL, "net.ipv4.tcp_congestion_control")
            .message("congestion control " + algorithm.get() + " (available: " + available + ")")
            .evidence("net.ipv4.tcp_congestion_control", algorithm.get())
            .evidence("available", available)
            .build();
    return CheckResult.of(
        name(),
        scope(),
        algorithm.get() + " (available: " + available + ")",
        List.of(finding),
        List.of());
  }
}
