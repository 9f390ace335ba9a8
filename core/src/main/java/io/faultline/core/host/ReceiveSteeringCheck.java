package io.faultline.core.host;

import io.faultline.core.finding.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * NICs whose receive work cannot spread: one rx queue and {@code rps_cpus} all zero on a host with
 * more than one CPU (the Netmarble RPS case). Virtual devices (no {@code device} link: loopback,
 * veth, bridges) are skipped; their receive work runs where the sender's does. Host-wide; inside a
 * container only the container's own (virtual) devices are visible.
 */
final class ReceiveSteeringCheck implements HostCheck {

  @Override
  public String name() {
    return "receive steering";
  }

  @Override
  public ReadingScope scope() {
    return ReadingScope.HOST;
  }

  @Override
  public CheckResult run(DoctorContext context) {
    ProcFs proc = context.proc();
    Optional<Integer> cpus = cpuCount(context);
    List<String> devices = proc.list("sys/class/net");
    if (cpus.isEmpty() || devices.isEmpty()) {
      return CheckResult.unknown(
          name(), scope(), "cannot read the CPU count or /sys/class/net under " + proc.root());
    }
    List<Finding> findings = new ArrayList<>();
    List<String> seen = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    for (String dev : devices) {
      String base = "sys/class/net/" + dev;
      if (!proc.exists(base + "/device")) {
        skipped.add(dev);
        continue;
      }
      List<String> rxQueues = new ArrayList<>();
      for (String q : proc.list(base + "/queues")) {
        if (q.startsWith("rx-")) {
          rxQueues.add(q);
        }
      }
      boolean rpsOff = true;
      for (String q : rxQueues) {
        String mask = proc.read(base + "/queues/" + q + "/rps_cpus").orElse("").trim();
        if (!mask.isEmpty() && !mask.replace(",", "").matches("0+")) {
          rpsOff = false;
        }
      }
      seen.add(dev + " (" + rxQueues.size() + " rx queue(s), RPS " + (rpsOff ? "off" : "on") + ")");
      if (rxQueues.size() == 1 && rpsOff && cpus.get() > 1) {
        findings.add(
            Finding.of(HostFindingTypes.RECEIVE_STEERING_SINGLE_CORE, dev)
                .message(
                    dev
                        + " has 1 rx queue and rps_cpus=0 on a "
                        + cpus.get()
                        + "-CPU host: all of its receive softirqs run on one CPU")
                .evidence("rx_queues", rxQueues.size())
                .evidence("rps_cpus", "0")
                .evidence("cpus", cpus.get())
                .build());
      }
    }
    String evidence =
        cpus.get()
            + " CPUs; "
            + (seen.isEmpty() ? "no physical NICs" : String.join(", ", seen))
            + (skipped.isEmpty() ? "" : "; virtual skipped: " + String.join(" ", skipped));
    return CheckResult.of(name(), scope(), evidence, findings, List.of());
  }

  static Optional<Integer> cpuCount(DoctorContext context) {
    Optional<long[]> netRx = context.first().netRxPerCpu();
    if (netRx.isPresent() && netRx.get().length > 0) {
      return Optional.of(netRx.get().length);
    }
    return Optional.empty();
  }
}
