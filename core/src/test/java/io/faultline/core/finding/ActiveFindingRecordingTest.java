package io.faultline.core.finding;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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

  @Test
  void aRecordingStartedAfterAFindingWasRaisedHasItAndTheOnesRaisedSince() throws Exception {
    Findings findings =
        new Findings(Duration.ofMinutes(10), Clock.systemUTC(), new RecordingLogger());
    // The event keeps milliseconds.
    Instant before = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    findings.raise(Finding.of(PORTS, "host").evidence("free", 12).build());
    findings.raise(Finding.of(PORTS, "gone").build());
    // Registering before Flight Recorder is set up would set it up: it waits until it is.
    assertThat(findings.recordActiveInFlightRecorder()).isEqualTo(FlightRecorder.isInitialized());

    List<RecordedEvent> events;
    try (Recording recording = new Recording()) {
      recording.enable("io.faultline.ActiveFinding");
      recording.start();
      assertThat(findings.recordActiveInFlightRecorder()).isTrue();
      findings.clear("EPHEMERAL_PORTS_LOW", "gone");
      findings.raise(Finding.of(PORTS, "later").build());
      recording.stop();
      events = dump(recording);
    } finally {
      findings.stopRecordingActiveInFlightRecorder();
    }

    // At the registration (the chunk was running) and at the chunk's end: what was in force then.
    assertThat(events)
        .extracting(e -> e.getString("subject"))
        .contains("host", "later")
        .containsSubsequence("gone", "later");
    assertThat(events.stream().map(e -> e.getString("subject")).toList())
        .as("nothing reported after it was cleared")
        .satisfies(s -> assertThat(s.lastIndexOf("gone")).isLessThan(s.indexOf("later")));
    RecordedEvent host =
        events.stream().filter(e -> e.getString("subject").equals("host")).findFirst().get();
    assertThat(host.getString("severity")).isEqualTo("CRITICAL");
    assertThat(host.getString("evidence")).contains("free=12");
    assertThat(host.getString("remediation")).isEqualTo("reuse connections");
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

  private static List<RecordedEvent> dump(Recording recording) throws Exception {
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
