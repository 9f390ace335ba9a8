package io.faultline.core.finding;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;

/**
 * The active findings in a real in-process JDK Flight Recorder recording: one raised before the
 * recording started, which its change event cannot show, is there with the moment it became active.
 */
class ActiveFindingRecordingTest {

  static final FindingType PORTS =
      new FindingType("EPHEMERAL_PORTS_LOW", Severity.CRITICAL, "t", "why", "reuse connections");

  // Its own texts: on JDK 17, Flight Recorder can lose a 17-127 character text in a recording made
  // after another one held it was stopped from another thread (it reads back as null), which the
  // other cases here do.
  static final FindingType CHECKED =
      new FindingType(
          "CHECKED_FIELD_BY_FIELD", Severity.CRITICAL, "t", "why", "reuse every connection");

  @Test
  void aRecordingStartedAfterAFindingWasRaisedHasItAndTheOnesRaisedSince() throws Exception {
    Findings findings =
        new Findings(Duration.ofMinutes(10), Clock.systemUTC(), new RecordingLogger());
    // The event keeps milliseconds.
    Instant before = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    findings.raise(Finding.of(CHECKED, "host").evidence("free", 12).build());
    findings.raise(Finding.of(CHECKED, "gone").build());
    // Registering before Flight Recorder is set up would set it up: it waits until it is.
    assertThat(findings.recordActiveInFlightRecorder()).isEqualTo(FlightRecorder.isInitialized());

    List<RecordedEvent> events;
    try (Recording recording = new Recording()) {
      recording.enable("io.faultline.ActiveFinding");
      recording.start();
      assertThat(findings.recordActiveInFlightRecorder()).isTrue();
      findings.clear("CHECKED_FIELD_BY_FIELD", "gone");
      findings.raise(Finding.of(CHECKED, "later").build());
      recording.stop();
      events = dump(recording);
    } finally {
      findings.stopRecordingActiveInFlightRecorder();
    }

    // The chunk's end: what was in force then (a registration while the chunk runs may also
    // bring a round soon after it, on Flight Recorder's thread).
    List<String> subjects = events.stream().map(e -> e.getString("subject")).toList();
    assertThat(subjects.subList(Math.max(0, subjects.size() - 2), subjects.size()))
        .as("the last round, of %s", events)
        .containsExactlyInAnyOrder("host", "later");
    assertThat(subjects.subList(subjects.indexOf("later"), subjects.size()))
        .as("nothing reported after it was cleared")
        .doesNotContain("gone");
    RecordedEvent host =
        events.stream().filter(e -> e.getString("subject").equals("host")).findFirst().get();
    assertThat(host.getString("severity")).isEqualTo("CRITICAL");
    assertThat(host.getString("evidence")).contains("free=12");
    assertThat(host.getString("remediation")).as("%s", host).isEqualTo("reuse every connection");
    assertThat(host.getInstant("since")).isBetween(before, Instant.now());
    assertThat(host.getEventType().getCategoryNames()).containsExactly("Faultline");
  }

  @Test
  void afterStoppingARecordingHasNoneOfTheRegistrysFindings() throws Exception {
    Findings findings =
        new Findings(Duration.ofMinutes(10), Clock.systemUTC(), new RecordingLogger());
    findings.raise(Finding.of(PORTS, "stopped").build());
    try (Recording recording = new Recording()) {
      recording.enable("io.faultline.ActiveFinding");
      recording.start();
      assertThat(findings.recordActiveInFlightRecorder()).isTrue();
      findings.stopRecordingActiveInFlightRecorder();
      recording.stop();
      assertThat(dump(recording)).noneMatch(e -> e.getString("subject").equals("stopped"));
    }
  }

  /**
   * Flight Recorder runs the hook holding its own locks: a hook that waited for the registry's lock
   * (held by a thread raising a finding, which may itself be committing an event) could deadlock.
   */
  @Test
  void theHookDoesNotWaitForARegistryBusyWithAChange() throws Exception {
    Findings findings =
        new Findings(Duration.ofMinutes(10), Clock.systemUTC(), new RecordingLogger());
    findings.raise(Finding.of(PORTS, "before").build());
    CountDownLatch inListener = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    findings.addListener(
        event -> {
          if (event.finding().subject().equals("busy")) {
            inListener.countDown();
            awaitQuietly(release);
          }
        });
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (Recording recording = new Recording()) {
      recording.enable("io.faultline.ActiveFinding");
      recording.start();
      assertThat(findings.recordActiveInFlightRecorder()).isTrue();
      // Listeners run under the registry's lock: this raise holds it until released.
      threads.submit(() -> findings.raise(Finding.of(PORTS, "busy").build()));
      assertThat(inListener.await(10, TimeUnit.SECONDS)).isTrue();
      Future<?> stop = threads.submit(recording::stop);
      try {
        stop.get(10, TimeUnit.SECONDS);
      } finally {
        release.countDown();
      }
      assertThat(dump(recording)).anyMatch(e -> e.getString("subject").equals("before"));
    } finally {
      release.countDown();
      findings.stopRecordingActiveInFlightRecorder();
      threads.shutdownNow();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The recording's {@code io.faultline.ActiveFinding} events, oldest first. */
  static List<RecordedEvent> dump(Recording recording) throws Exception {
    Path file = Files.createTempFile("active-findings", ".jfr");
    try {
      recording.dump(file);
      return RecordingFile.readAllEvents(file).stream()
          .filter(e -> e.getEventType().getName().equals("io.faultline.ActiveFinding"))
          .sorted(java.util.Comparator.comparing(RecordedEvent::getStartTime))
          .toList();
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
