package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The kernel's socket buffer ceilings against the target bandwidth-delay product: a connection
 * cannot carry more than its window per round trip (the Tencent CKafka incident). {@code
 * net.core.rmem_max/wmem_max} are host-wide (they cap an explicit {@code SO_RCVBUF}); {@code
 * tcp_rmem/tcp_wmem} are per network namespace on kernels from 4.15 (they cap autotuning).
 */
final class SocketBufferCheck implements HostCheck {

  private static final List<String> SINGLE = List.of("net.core.rmem_max", "net.core.wmem_max");
  private static final List<String> TRIPLE = List.of("net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");

  @Override
  public String name() {
    return "socket buffer ceilings";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.HOST;
  }

  @Override
  public CheckResult run(DoctorContext context) {
    long bdp = context.options().targetBdpBytes();
    List<Finding> findings = new ArrayList<>();
    StringBuilder evidence = new StringBuilder();
    for (String sysctl : SINGLE) {
      check(context.proc(), sysctl, 0, bdp, evidence, findings);
    }
    for (String sysctl : TRIPLE) {
      check(context.proc(), sysctl, 2, bdp, evidence, findings);
    }
    if (evidence.length() == 0) {
      return CheckResult.unknown(
          name(), scope(), "cannot read rmem_max/wmem_max/tcp_rmem/tcp_wmem");
    }
    evidence.append(", target BDP=").append(bdp);
    List<String> notes =
        List.of(
            "the usable window is smaller than the buffer (part of it holds kernel overhead,"
                + " see tcp_adv_win_scale)");
    return CheckResult.of(name(), scope(), evidence.toString(), findings, notes);
  }

  private static void check(
      ProcFs proc,
      String sysctl,
      int index,
      long bdp,
      StringBuilder evidence,
      List<Finding> findings) {
    Optional<long[]> values = proc.sysctlNumbers(sysctl);
    if (values.isEmpty() || values.get().length <= index) {
      return;
    }
    long ceiling = values.get()[index];
    String shortName = sysctl.substring(sysctl.lastIndexOf('.') + 1);
    evidence.append(evidence.length() == 0 ? "" : ", ").append(shortName).append('=');
    evidence.append(ceiling);
    if (ceiling < bdp) {
      findings.add(
          Finding.of(HostFindingTypes.SOCKET_BUFFER_CEILING_LOW, sysctl)
              .message(
                  sysctl
                      + (index == 0 ? "" : " max")
                      + "="
                      + ceiling
                      + " bytes is below the target bandwidth-delay product of "
                      + bdp
                      + " bytes")
              .evidence(sysctl, ceiling)
              .evidence("target_bdp", bdp)
              .build());
    }
  }
}
