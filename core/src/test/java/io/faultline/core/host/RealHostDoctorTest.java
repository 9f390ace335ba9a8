package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The doctor over this machine's real /proc and /sys. */
class RealHostDoctorTest {

  @Test
  void readsThisMachine() {
    assumeTrue(Files.isReadable(Paths.get("/proc/sys/net/ipv4/ip_local_port_range")), "Linux");
    DoctorReport report =
        new HostDoctor(
                ProcFs.system(),
                DoctorOptions.defaults().withSample(java.time.Duration.ofMillis(200)))
            .examine();
    System.out.print(ReportRenderer.table(report));

    assertThat(report.result("ephemeral ports").status()).isNotEqualTo(CheckStatus.UNKNOWN);
    assertThat(report.result("ephemeral ports").evidence()).containsPattern("port range \\d+-\\d+");
    assertThat(report.result("syn-cookie kernel bug").evidence())
        .contains(ProcFs.system().sysctlText("kernel.osrelease").orElseThrow());
    assertThat(report.result("listen queue counters").evidence()).contains("SyncookiesSent=+");
    assertThat(report.result("socket buffer ceilings").evidence())
        .containsPattern("rmem_max=\\d{4,}");
    for (CheckResult r : report.results()) {
      if (!r.check().equals("receive steering")) { // a host may have no NIC of its own
        assertThat(r.status()).as(r.check()).isNotEqualTo(CheckStatus.UNKNOWN);
      }
    }
  }
}
