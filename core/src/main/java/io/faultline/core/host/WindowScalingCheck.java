package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Window scaling off outright, or lost under SYN cookies because timestamps are off (the Tencent
 * CKafka incident). These sysctls are per network namespace.
 */
final class WindowScalingCheck implements HostCheck {

  @Override
  public String name() {
    return "window scaling";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.NETWORK_NAMESPACE;
  }

  @Override
  public CheckResult run(DoctorContext context) {
    ProcFs proc = context.proc();
    OptionalLong scaling = proc.sysctl("net.ipv4.tcp_window_scaling");
    OptionalLong timestamps = proc.sysctl("net.ipv4.tcp_timestamps");
    OptionalLong cookies = proc.sysctl("net.ipv4.tcp_syncookies");
    if (scaling.isEmpty() || timestamps.isEmpty() || cookies.isEmpty()) {
      return CheckResult.unknown(
          name(),
          scope(),
          "cannot read tcp_window_scaling, tcp_timestamps or tcp_syncookies under " + proc.root());
    }
    String evidence =
        "tcp_window_scaling="
            + scaling.getAsLong()
            + ", tcp_timestamps="
            + timestamps.getAsLong()
            + ", tcp_syncookies="
            + cookies.getAsLong();
    List<Finding> findings = new ArrayList<>();
    if (scaling.getAsLong() == 0) {
      findings.add(
          Finding.of(HostFindingTypes.TCP_WINDOW_SCALING_DISABLED, "net.ipv4.tcp_window_scaling")
              .message("tcp_window_scaling=0: no connection can have a window above 64 KiB")
              .evidence("net.ipv4.tcp_window_scaling", scaling.getAsLong())
              .build());
    }
    if (timestamps.getAsLong() == 0 && cookies.getAsLong() != 0) {
      findings.add(
          Finding.of(HostFindingTypes.SYN_COOKIES_WITHOUT_TIMESTAMPS, "net.ipv4.tcp_timestamps")
              .message(
                  "tcp_timestamps=0 with tcp_syncookies="
                      + cookies.getAsLong()
                      + ": connections accepted through a SYN cookie get no window scaling")
              .evidence("net.ipv4.tcp_timestamps", timestamps.getAsLong())
              .evidence("net.ipv4.tcp_syncookies", cookies.getAsLong())
              .build());
    }
    List<String> notes = new ArrayList<>();
    if (findings.isEmpty() && cookies.getAsLong() != 0) {
      notes.add(
          "a middlebox that strips the timestamp option from SYNs (the Tencent CKafka incident's"
              + " NAT gateway) still makes cookie connections lose window scaling");
    }
    return CheckResult.of(name(), scope(), evidence, findings, notes);
  }
}
