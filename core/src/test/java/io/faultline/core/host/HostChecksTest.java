package io.faultline.core.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Severity;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every check over the recorded trees, on both sides of each threshold. */
class HostChecksTest {

  @TempDir Path dir;

  private FixtureTree healthy() {
    return FixtureTree.copy("healthy", dir);
  }

  private FixtureTree risky() {
    return FixtureTree.copy("risky", dir);
  }

  private static List<String> ids(CheckResult r) {
    return r.findings().stream().map(Finding::id).collect(Collectors.toList());
  }

  // --- SYN-cookie kernel bug ---

  @Test
  void fixedKernelsPass() {
    for (String release : List.of("5.10.0", "6.1.0-18-amd64", "4.19.158", "5.4.78", "4.4.244")) {
      CheckResult r = healthy().sysctl("kernel.osrelease", release).run(new SynCookieKernelCheck());
      assertThat(r.status()).as(release).isEqualTo(CheckStatus.OK);
    }
  }

  @Test
  void kernelsBelowTheFixWithCookiesAreFlagged() {
    for (String release : List.of("4.19.157", "5.4.77", "5.9.8", "4.14.186", "5.8.18", "3.10.0")) {
      CheckResult r =
          healthy()
              .sysctl("kernel.osrelease", release)
              .sysctl("net.ipv4.tcp_syncookies", "1")
              .run(new SynCookieKernelCheck());
      assertThat(ids(r)).as(release).containsExactly("SYN_COOKIE_WSCALE_KERNEL_BUG");
      assertThat(r.status()).isEqualTo(CheckStatus.WARNING);
    }
  }

  @Test
  void alwaysOnCookiesOnABuggyKernelAreCritical() {
    CheckResult r =
        healthy()
            .sysctl("kernel.osrelease", "5.4.50")
            .sysctl("net.ipv4.tcp_syncookies", "2")
            .run(new SynCookieKernelCheck());
    assertThat(r.status()).isEqualTo(CheckStatus.CRITICAL);
    assertThat(r.findings().get(0).evidence()).containsEntry("fixed_in", "5.4.78");
  }

  @Test
  void aBuggyKernelWithoutCookiesIsOnlyANote() {
    CheckResult r =
        healthy()
            .sysctl("kernel.osrelease", "4.19.100")
            .sysctl("net.ipv4.tcp_syncookies", "0")
            .run(new SynCookieKernelCheck());
    assertThat(r.status()).isEqualTo(CheckStatus.OK);
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("4.19.158"));
  }

  @Test
  void distroNumberingIsCalledAmbiguous() {
    CheckResult r =
        healthy().sysctl("kernel.osrelease", "4.19.0-21-amd64").run(new SynCookieKernelCheck());
    assertThat(ids(r)).containsExactly("SYN_COOKIE_WSCALE_KERNEL_BUG");
    assertThat(r.findings().get(0).evidence()).containsKey("version_ambiguous");
    assertThat(r.findings().get(0).message()).contains("ambiguous");
  }

  @Test
  void anUnreadableReleaseIsUnknown() {
    CheckResult r = healthy().delete("proc/sys/kernel/osrelease").run(new SynCookieKernelCheck());
    assertThat(r.status()).isEqualTo(CheckStatus.UNKNOWN);
  }

  // --- window scaling ---

  @Test
  void windowScalingPassesWithTimestampsOn() {
    assertThat(healthy().run(new WindowScalingCheck()).status()).isEqualTo(CheckStatus.OK);
  }

  @Test
  void cookiesWithoutTimestampsAreFlagged() {
    CheckResult r = risky().run(new WindowScalingCheck());
    assertThat(ids(r)).containsExactly("SYN_COOKIES_WITHOUT_TIMESTAMPS");
  }

  @Test
  void timestampsOffWithoutCookiesIsFine() {
    CheckResult r = risky().sysctl("net.ipv4.tcp_syncookies", "0").run(new WindowScalingCheck());
    assertThat(r.status()).isEqualTo(CheckStatus.OK);
  }

  @Test
  void windowScalingOffIsCritical() {
    CheckResult r =
        healthy().sysctl("net.ipv4.tcp_window_scaling", "0").run(new WindowScalingCheck());
    assertThat(ids(r)).containsExactly("TCP_WINDOW_SCALING_DISABLED");
    assertThat(r.status()).isEqualTo(CheckStatus.CRITICAL);
  }

  // --- listen backlog ---

  @Test
  void backlogLimitsAtOrAboveTheBurstPass() {
    DoctorOptions o = DoctorOptions.defaults().withExpectedConnections(16_384);
    assertThat(healthy().run(new ListenBacklogCheck(), o).status()).isEqualTo(CheckStatus.OK);
  }

  @Test
  void backlogLimitsBelowTheBurstAreFlaggedEach() {
    DoctorOptions o = DoctorOptions.defaults().withExpectedConnections(16_385);
    CheckResult r = healthy().run(new ListenBacklogCheck(), o);
    assertThat(ids(r)).containsExactly("LISTEN_BACKLOG_SMALL", "LISTEN_BACKLOG_SMALL");
    assertThat(r.findings())
        .extracting(Finding::subject)
        .containsExactly("net.core.somaxconn", "net.ipv4.tcp_max_syn_backlog");
  }

  // --- listen counters (two samples) ---

  private CheckResult countersBetween(FixtureTree tree, String before, String after) {
    tree.set("proc/net/netstat", before);
    HostSample first = HostSample.take(tree.proc(), Instant.parse("2026-01-01T00:00:00Z"));
    tree.set("proc/net/netstat", after);
    HostSample second = HostSample.take(tree.proc(), Instant.parse("2026-01-01T00:00:05Z"));
    DoctorContext c =
        new DoctorContext(
            tree.proc(),
            DoctorOptions.defaults(),
            first,
            Optional.of(second),
            HostEnvironment.detect(tree.proc()));
    return new ListenCountersCheck().run(c);
  }

  private static String netstat(long cookies, long overflows, long drops, long reqqCookies) {
    return "TcpExt: SyncookiesSent SyncookiesRecv SyncookiesFailed ListenOverflows ListenDrops"
        + " TCPReqQFullDoCookies TCPReqQFullDrop\nTcpExt: "
        + cookies
        + " 0 0 "
        + overflows
        + " "
        + drops
        + " "
        + reqqCookies
        + " 0\n";
  }

  @Test
  void oneSampleSaysNotSampledWithTotals() {
    CheckResult r = healthy().run(new ListenCountersCheck());
    assertThat(r.status()).isEqualTo(CheckStatus.NOT_SAMPLED);
    assertThat(r.evidence()).contains("SyncookiesSent=");
  }

  @Test
  void flatCountersPass() {
    CheckResult r = countersBetween(healthy(), netstat(5, 7, 7, 5), netstat(5, 7, 7, 5));
    assertThat(r.status()).isEqualTo(CheckStatus.OK);
  }

  @Test
  void risingCookiesAndOverflowsAreFlaggedWithRates() {
    CheckResult r = countersBetween(healthy(), netstat(5, 7, 7, 5), netstat(505, 57, 57, 505));
    assertThat(ids(r)).containsExactly("LISTEN_QUEUE_OVERFLOWING", "SYN_COOKIES_SENT");
    assertThat(r.status()).isEqualTo(CheckStatus.CRITICAL);
    Finding cookies = r.findings().get(1);
    assertThat(cookies.evidence()).containsEntry("SyncookiesSent_delta", 500L);
    assertThat(cookies.evidence()).containsEntry("SyncookiesSent_per_second", 100.0);
  }

  @Test
  void cookiesAloneAreAWarning() {
    CheckResult r = countersBetween(healthy(), netstat(5, 7, 7, 5), netstat(6, 7, 7, 5));
    assertThat(ids(r)).containsExactly("SYN_COOKIES_SENT");
    assertThat(r.status()).isEqualTo(CheckStatus.WARNING);
  }

  // --- ephemeral ports ---

  @Test
  void fewTimeWaitSocketsPass() {
    assertThat(healthy().run(new EphemeralPortsCheck()).status()).isEqualTo(CheckStatus.OK);
  }

  @Test
  void seed001TimeWaitCountIsCritical() {
    CheckResult r = risky().run(new EphemeralPortsCheck());
    assertThat(ids(r)).containsExactly("EPHEMERAL_PORTS_LOW");
    assertThat(r.status()).isEqualTo(CheckStatus.CRITICAL);
    assertThat(r.findings().get(0).evidence())
        .containsEntry("time_wait", 27_012L)
        .containsEntry("port_range_size", 28_232L)
        .containsEntry("net.ipv4.tcp_tw_reuse", "0");
  }

  @Test
  void betweenTheRatiosIsAWarningAndJustBelowIsOk() {
    // 28,232 ports: 50% is 14,116.
    FixtureTree t = risky();
    t.set("proc/net/sockstat", "TCP: inuse 116 orphan 0 tw 14000 alloc 120 mem 5");
    assertThat(t.run(new EphemeralPortsCheck()).status()).isEqualTo(CheckStatus.WARNING);
    t.set("proc/net/sockstat", "TCP: inuse 115 orphan 0 tw 14000 alloc 120 mem 5");
    assertThat(t.run(new EphemeralPortsCheck()).status()).isEqualTo(CheckStatus.OK);
  }

  // --- socket buffers ---

  @Test
  void ceilingsAtTheTargetPass() {
    DoctorOptions o = DoctorOptions.defaults().withTargetBdpBytes(4_194_304);
    assertThat(healthy().run(new SocketBufferCheck(), o).status()).isEqualTo(CheckStatus.OK);
  }

  @Test
  void ceilingsBelowTheTargetAreFlaggedEach() {
    DoctorOptions o = DoctorOptions.defaults().withTargetBdpBytes(4_194_305);
    CheckResult r = risky().run(new SocketBufferCheck(), o);
    assertThat(r.findings())
        .extracting(Finding::subject)
        .containsExactly("net.core.rmem_max", "net.core.wmem_max", "net.ipv4.tcp_wmem");
  }

  // --- receive steering ---

  @Test
  void rpsOnPasses() {
    assertThat(healthy().run(new ReceiveSteeringCheck()).status()).isEqualTo(CheckStatus.OK);
  }

  @Test
  void oneQueueWithRpsOffOnManyCpusIsFlagged() {
    CheckResult r = risky().run(new ReceiveSteeringCheck());
    assertThat(ids(r)).containsExactly("RECEIVE_STEERING_SINGLE_CORE");
    assertThat(r.findings().get(0).subject()).isEqualTo("eth0");
    assertThat(r.evidence()).contains("8 CPUs").contains("virtual skipped: lo");
  }

  @Test
  void aSecondQueueOrOneCpuIsFine() {
    FixtureTree t = risky().set("sys/class/net/eth0/queues/rx-1/rps_cpus", "00");
    assertThat(t.run(new ReceiveSteeringCheck()).status()).isEqualTo(CheckStatus.OK);
    FixtureTree one =
        FixtureTree.copy("risky", dir.resolve("one"))
            .set("proc/softirqs", "        CPU0\n  NET_RX:  12345\n");
    assertThat(one.run(new ReceiveSteeringCheck()).status()).isEqualTo(CheckStatus.OK);
  }

  // --- NET_RX spread (two samples) ---

  private CheckResult softirqsBetween(String before, String after) {
    FixtureTree tree = risky();
    tree.set("proc/softirqs", before);
    HostSample first = HostSample.take(tree.proc(), Instant.parse("2026-01-01T00:00:00Z"));
    tree.set("proc/softirqs", after);
    HostSample second = HostSample.take(tree.proc(), Instant.parse("2026-01-01T00:00:10Z"));
    return new NetRxSoftirqCheck()
        .run(
            new DoctorContext(
                tree.proc(),
                DoctorOptions.defaults(),
                first,
                Optional.of(second),
                HostEnvironment.detect(tree.proc())));
  }

  @Test
  void oneCpuTakingMostNetRxIsFlagged() {
    CheckResult r =
        softirqsBetween(
            "   CPU0 CPU1 CPU2 CPU3\n NET_RX: 0 0 0 0\n",
            "   CPU0 CPU1 CPU2 CPU3\n NET_RX: 90000 5000 3000 2000\n");
    assertThat(ids(r)).containsExactly("NET_RX_SOFTIRQ_ON_ONE_CPU");
    assertThat(r.findings().get(0).evidence())
        .containsEntry("cpu", 0)
        .containsEntry("share", 0.9)
        .containsEntry("net_rx_per_second", 10_000L);
  }

  @Test
  void spreadNetRxPasses() {
    CheckResult r =
        softirqsBetween(
            "   CPU0 CPU1 CPU2 CPU3\n NET_RX: 0 0 0 0\n",
            "   CPU0 CPU1 CPU2 CPU3\n NET_RX: 70000 10000 10000 10000\n");
    assertThat(r.status()).isEqualTo(CheckStatus.OK);
  }

  @Test
  void anIdleHostIsNotJudged() {
    CheckResult r =
        softirqsBetween(
            "   CPU0 CPU1\n NET_RX: 0 0\n", "   CPU0 CPU1\n NET_RX: 9000 0\n"); // 900/s < 1000/s
    assertThat(r.status()).isEqualTo(CheckStatus.OK);
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("too little"));
  }

  @Test
  void softirqsWithOneSampleAreNotSampled() {
    assertThat(risky().run(new NetRxSoftirqCheck()).status()).isEqualTo(CheckStatus.NOT_SAMPLED);
  }

  // --- congestion control, environment, doctor ---

  @Test
  void congestionControlIsInfo() {
    CheckResult r = risky().run(new CongestionControlCheck());
    assertThat(r.status()).isEqualTo(CheckStatus.INFO);
    assertThat(r.findings().get(0).severity()).isEqualTo(Severity.INFO);
    assertThat(r.evidence()).startsWith("cubic");
  }

  @Test
  void containersAreDetectedAndNamespaceReadingsSaySo() {
    DoctorReport report = new HostDoctor(risky().proc(), DoctorOptions.defaults()).examine();
    assertThat(report.environment().inContainer()).isTrue();
    assertThat(report.environment().signs())
        .contains("/.dockerenv", "/proc/1/cgroup mentions docker");
    assertThat(report.result("ephemeral ports").notes())
        .anySatisfy(n -> assertThat(n).contains("container's own network-namespace"));
    assertThat(report.result("receive steering").notes())
        .anySatisfy(n -> assertThat(n).contains("host-wide"));
  }

  @Test
  void theDoctorsExitCodeFollowsTheWorstFinding() {
    assertThat(new HostDoctor(risky().proc(), DoctorOptions.defaults()).examine().exitCode())
        .isEqualTo(2);
    DoctorReport healthyReport =
        new HostDoctor(
                FixtureTree.copy("healthy", dir.resolve("h")).proc(),
                DoctorOptions.defaults().withExpectedConnections(1000))
            .examine();
    assertThat(healthyReport.environment().inContainer()).isFalse();
    assertThat(healthyReport.exitCode()).as(ReportRenderer.table(healthyReport)).isZero();
  }

  @Test
  void samplingTakesTwoSamplesThroughTheSleeper() {
    FixtureTree t = healthy();
    java.util.concurrent.atomic.AtomicReference<java.time.Duration> slept =
        new java.util.concurrent.atomic.AtomicReference<>();
    HostDoctor doctor =
        new HostDoctor(
            t.proc(),
            DoctorOptions.defaults().withSample(java.time.Duration.ofSeconds(3)),
            java.time.Clock.systemUTC(),
            slept::set,
            HostDoctor.standardChecks());
    DoctorReport report = doctor.examine();
    assertThat(slept.get()).isEqualTo(java.time.Duration.ofSeconds(3));
    assertThat(report.result("listen queue counters").status()).isEqualTo(CheckStatus.OK);
  }
}
