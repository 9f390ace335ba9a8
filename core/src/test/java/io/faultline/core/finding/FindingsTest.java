package io.faultline.core.finding;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.FindingEvent.Kind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FindingsTest {

  static final FindingType WINDOW =
      new FindingType("WINDOW_SCALING_OFF", Severity.WARNING, "t", "why", "raise the buffers");
  static final FindingType PORTS =
      new FindingType("EPHEMERAL_PORTS_LOW", Severity.CRITICAL, "t", "why", "reuse connections");
  static final FindingType HINT = new FindingType("SOME_HINT", Severity.INFO, "t", "why", "fix");

  private final MutableClock clock = new MutableClock();
  private final RecordingLogger log = new RecordingLogger();
  private final Findings findings = new Findings(Duration.ofMinutes(10), clock, log);
  private final List<FindingEvent> events = new CopyOnWriteArrayList<>();

  FindingsTest() {
    findings.addListener(events::add);
  }

  private static Finding window(String subject, int rttMs) {
    return Finding.of(WINDOW, subject).evidence("rtt_ms", rttMs).build();
  }

  @Test
  void raisingTheSameIdAndSubjectAgainUpdatesTheActiveFindingAndCountsOnce() {
    findings.raise(window("node 1", 200));
    findings.raise(window("node 1", 250));
    findings.raise(Finding.of(WINDOW, "node 1").severity(Severity.CRITICAL).build());
    findings.raise(window("node 2", 200));

    assertThat(findings.active())
        .extracting(Finding::subject, Finding::severity)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("node 1", Severity.CRITICAL),
            org.assertj.core.groups.Tuple.tuple("node 2", Severity.WARNING));
    assertThat(findings.raisedCount("WINDOW_SCALING_OFF")).isEqualTo(2);
    assertThat(findings.activeCount("WINDOW_SCALING_OFF", Severity.WARNING)).isEqualTo(1);
    assertThat(findings.activeCount("WINDOW_SCALING_OFF", Severity.CRITICAL)).isEqualTo(1);
    assertThat(events)
        .extracting(FindingEvent::kind)
        .containsExactly(Kind.RAISED, Kind.UPDATED, Kind.UPDATED, Kind.RAISED);
  }

  @Test
  void anIdenticalReportIsNotAnUpdate() {
    findings.raise(window("node 1", 200));
    findings.raise(window("node 1", 200));

    assertThat(events).extracting(FindingEvent::kind).containsExactly(Kind.RAISED);
  }

  @Test
  void logsWhenRaisedAtMostOncePerIntervalWhileActiveAndOnceWhenCleared() {
    findings.raise(window("node 1", 200));
    clock.advance(Duration.ofMinutes(5));
    findings.raise(window("node 1", 200));
    clock.advance(Duration.ofMinutes(5));
    findings.raise(window("node 1", 200));
    clock.advance(Duration.ofMinutes(1));
    findings.raise(window("node 1", 200));
    clock.advance(Duration.ofMinutes(1));
    assertThat(findings.clear("WINDOW_SCALING_OFF", "node 1")).isTrue();
    assertThat(findings.clear("WINDOW_SCALING_OFF", "node 1")).isFalse();

    assertThat(log.lines)
        .containsExactly(
            "WARNING faultline: [WARNING] WINDOW_SCALING_OFF about node 1: t {rtt_ms=200}. What to"
                + " do: raise the buffers (see docs/findings.md#window_scaling_off or: java -jar"
                + " faultline-agent.jar explain WINDOW_SCALING_OFF)",
            "WARNING faultline: still active since 2024-06-11T10:00:00Z (PT10M): [WARNING]"
                + " WINDOW_SCALING_OFF about node 1: t {rtt_ms=200}. What to do: raise the buffers"
                + " (see docs/findings.md#window_scaling_off or: java -jar faultline-agent.jar"
                + " explain WINDOW_SCALING_OFF)",
            "INFO faultline: cleared WINDOW_SCALING_OFF about node 1 after PT12M");
    assertThat(events).extracting(FindingEvent::kind).containsExactly(Kind.RAISED, Kind.CLEARED);
    assertThat(events.get(1).at()).isEqualTo(clock.instant());
  }

  @Test
  void anInfoFindingIsLoggedOnceWhileActiveHoweverOftenItIsReported() {
    for (int minute = 0; minute < 45; minute++) {
      findings.raise(Finding.of(HINT, "host").build());
      clock.advance(Duration.ofMinutes(1));
    }
    assertThat(findings.clear("SOME_HINT", "host")).isTrue();

    assertThat(log.lines)
        .extracting(line -> line.substring(0, line.indexOf(':')))
        .containsExactly("INFO faultline", "INFO faultline");
    assertThat(log.lines.get(0)).startsWith("INFO faultline: [INFO] SOME_HINT about host");
    assertThat(log.lines.get(1))
        .isEqualTo("INFO faultline: cleared SOME_HINT about host after PT45M");
  }

  @Test
  void aRisingSeverityIsLoggedAtOnceAndAFallingOneWaitsForTheInterval() {
    findings.raise(Finding.of(HINT, "host").build());
    clock.advance(Duration.ofMinutes(1));
    findings.raise(Finding.of(HINT, "host").severity(Severity.WARNING).build());
    clock.advance(Duration.ofMinutes(1));
    findings.raise(Finding.of(HINT, "host").severity(Severity.CRITICAL).build());
    clock.advance(Duration.ofMinutes(1));
    findings.raise(Finding.of(HINT, "host").severity(Severity.WARNING).build());
    clock.advance(Duration.ofMinutes(10));
    findings.raise(Finding.of(HINT, "host").severity(Severity.WARNING).build());

    assertThat(log.lines).hasSize(4);
    assertThat(log.lines.get(0)).startsWith("INFO faultline: [INFO] SOME_HINT about host");
    assertThat(log.lines.get(1))
        .startsWith(
            "WARNING faultline: now WARNING (was INFO, active since 2024-06-11T10:00:00Z):"
                + " [WARNING] SOME_HINT about host");
    assertThat(log.lines.get(2))
        .startsWith(
            "ERROR faultline: now CRITICAL (was WARNING, active since 2024-06-11T10:00:00Z):"
                + " [CRITICAL] SOME_HINT about host");
    assertThat(log.lines.get(3))
        .startsWith(
            "WARNING faultline: still active since 2024-06-11T10:00:00Z (PT13M): [WARNING]"
                + " SOME_HINT about host");
  }

  @Test
  void aSubjectWithALineBreakIsLoggedOnOneLine() {
    findings.raise(window("client-1\nfaultline: forged entry", 200));
    findings.clear("WINDOW_SCALING_OFF", "client-1\nfaultline: forged entry");

    assertThat(log.lines)
        .hasSize(2)
        .allSatisfy(line -> assertThat(line).doesNotContain("\n").contains("client-1\\nfaultline"));
    assertThat(findings.active()).isEmpty();
  }

  @Test
  void aFindingRaisedAgainAfterClearingCountsAndLogsAgain() {
    findings.raise(window("node 1", 200));
    findings.clear("WINDOW_SCALING_OFF", "node 1");
    findings.raise(window("node 1", 200));

    assertThat(findings.raisedCount("WINDOW_SCALING_OFF")).isEqualTo(2);
    assertThat(log.lines).hasSize(3);
  }

  @Test
  void replaceAllClearsWhatTheSourceNoLongerReportsAndLeavesOthersAlone() {
    findings.raise(window("node 9", 200));
    findings.replaceAll("kafka.connections", List.of(window("node 1", 200), window("node 2", 200)));
    findings.replaceAll("host", List.of(Finding.of(PORTS, "ip_local_port_range").build()));

    findings.replaceAll("kafka.connections", List.of(window("node 2", 300)));

    assertThat(findings.active())
        .extracting(Finding::subject)
        .containsExactly("ip_local_port_range", "node 2", "node 9");
    assertThat(events)
        .extracting(FindingEvent::kind)
        .containsExactly(
            Kind.RAISED, Kind.RAISED, Kind.RAISED, Kind.RAISED, Kind.UPDATED, Kind.CLEARED);

    findings.replaceAll("kafka.connections", List.of());
    assertThat(findings.active())
        .extracting(Finding::subject)
        .containsExactly("ip_local_port_range", "node 9");
  }

  @Test
  void aFindingAnotherSourceReportsIsThatSourcesToClearAndAClearedOneIsNoLongerOwned() {
    findings.replaceAll("kafka.tcp:a", List.of(window("node 1", 200), window("node 2", 200)));
    findings.replaceAll("kafka.tcp:b", List.of(window("node 2", 250)));

    // node 2 is b's now: a reporting only node 1 again clears nothing, a reporting nothing node 1.
    findings.replaceAll("kafka.tcp:a", List.of(window("node 1", 200)));
    assertThat(findings.active()).extracting(Finding::subject).containsExactly("node 1", "node 2");
    findings.replaceAll("kafka.tcp:a", List.of());
    assertThat(findings.active()).extracting(Finding::subject).containsExactly("node 2");

    // Cleared by hand, then reported again beside another: the next round without it clears it.
    findings.clear("WINDOW_SCALING_OFF", "node 2");
    findings.replaceAll("kafka.tcp:b", List.of(window("node 2", 250), window("node 3", 250)));
    findings.replaceAll("kafka.tcp:b", List.of(window("node 3", 250)));
    assertThat(findings.active()).extracting(Finding::subject).containsExactly("node 3");

    // The same finding twice in one round is one finding: the round after without it clears it.
    findings.replaceAll("kafka.tcp:c", List.of(window("node 4", 1), window("node 4", 1)));
    findings.replaceAll("kafka.tcp:c", List.of());
    assertThat(findings.active()).extracting(Finding::subject).containsExactly("node 3");
    assertThat(findings.internalErrors()).isZero();
  }

  @Test
  void aTestToolHearsEveryReportWhetherRaisedOrReplaced() {
    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    Runnable unsubscribe =
        io.faultline.core.observe.Observations.subscribe(
            (kind, values) -> {
              if (kind.equals("finding")) {
                heard.add(values.get("id") + " " + values.get("subject"));
              }
            });
    try {
      findings.raise(window("node 9", 200));
      findings.replaceAll("kafka.connections", List.of(window("node 1", 200)));
      findings.replaceAll("kafka.connections", List.of(window("node 1", 200)));
    } finally {
      unsubscribe.run();
    }
    assertThat(heard)
        .containsExactly(
            "WINDOW_SCALING_OFF node 9", "WINDOW_SCALING_OFF node 1", "WINDOW_SCALING_OFF node 1");
  }

  @Test
  void activeIsSortedMostSevereFirstThenByIdAndSubject() {
    findings.raise(Finding.of(HINT, "a").build());
    findings.raise(window("b", 1));
    findings.raise(Finding.of(PORTS, "z").build());
    findings.raise(window("a", 1));

    assertThat(findings.active())
        .extracting(f -> f.id() + "/" + f.subject())
        .containsExactly(
            "EPHEMERAL_PORTS_LOW/z", "WINDOW_SCALING_OFF/a", "WINDOW_SCALING_OFF/b", "SOME_HINT/a");
  }

  @Test
  void aFailingListenerOrBadInputNeverReachesTheCaller() {
    findings.addListener(
        event -> {
          throw new IllegalStateException("listener bug");
        });

    findings.raise(window("node 1", 200));
    findings.raise(null);
    findings.replaceAll("x", null);

    assertThat(findings.active()).hasSize(1);
    assertThat(events).hasSize(1);
    assertThat(findings.internalErrors()).isEqualTo(3);
  }

  @Test
  void concurrentRaisesOfOneFindingCountItOnce() throws InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    try {
      for (int t = 0; t < 8; t++) {
        int thread = t;
        pool.execute(
            () -> {
              try {
                start.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              for (int i = 0; i < 1000; i++) {
                findings.raise(window("node " + (i % 10), thread));
              }
            });
      }
      start.countDown();
    } finally {
      pool.shutdown();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(findings.active()).hasSize(10);
    assertThat(findings.raisedCount("WINDOW_SCALING_OFF")).isEqualTo(10);
    assertThat(events.stream().filter(e -> e.kind() == Kind.RAISED)).hasSize(10);
    assertThat(findings.internalErrors()).isZero();
  }
}
