package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.ConfigSources;
import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Severity;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerSideFindingsTest {

  private static final Finding BACKLOG =
      Finding.of(HostFindingTypes.LISTEN_BACKLOG_SMALL, "net.core.somaxconn")
          .message("net.core.somaxconn=4096 is below the expected burst of 10000")
          .build();
  private static final Finding STEERING =
      Finding.of(HostFindingTypes.RECEIVE_STEERING_SINGLE_CORE, "eth0")
          .message("eth0 has 1 rx queue")
          .build();
  private static final Finding NO_SCALING =
      Finding.of(HostFindingTypes.TCP_WINDOW_SCALING_DISABLED, "net.ipv4.tcp_window_scaling")
          .message("off")
          .build();

  @Test
  void aProcessThatAcceptsNoConnectionsIsToldTheServerSideFindingsForInformation() {
    List<Finding> told =
        ServerSideFindings.forProcess(List.of(BACKLOG, STEERING, NO_SCALING), false);

    assertThat(told)
        .extracting(Finding::severity)
        .containsExactly(Severity.INFO, Severity.INFO, Severity.CRITICAL);
    assertThat(told.get(0).message())
        .startsWith(BACKLOG.message())
        .contains("this process accepts no connections");
    assertThat(told.get(0).evidence()).isEqualTo(BACKLOG.evidence());
    assertThat(told.get(2)).isSameAs(NO_SCALING);
  }

  @Test
  void aProcessThatListensGetsThemAsTheHostRaisedThem() {
    List<Finding> all = List.of(BACKLOG, STEERING, NO_SCALING);

    assertThat(ServerSideFindings.forProcess(all, true)).isEqualTo(all);
  }

  @Test
  void theDoctorsSettingsComeFromTheConfiguration() {
    FaultlineConfig config =
        FaultlineConfig.builder()
            .sources(
                ConfigSources.of(
                    Map.of(),
                    Map.of(),
                    "doctor.expected-connections=500,doctor.sample=2s,"
                        + "doctor.ephemeral-ports.warn-ratio=0.4"))
            .load();

    DoctorOptions options = DoctorOptions.from(config);

    assertThat(options.expectedConnections()).isEqualTo(500);
    assertThat(options.sample()).isEqualTo(Duration.ofSeconds(2));
    assertThat(options.portsWarnRatio()).isEqualTo(0.4);
    assertThat(options.targetBdpBytes()).isEqualTo(DoctorOptions.defaults().targetBdpBytes());
  }
}
