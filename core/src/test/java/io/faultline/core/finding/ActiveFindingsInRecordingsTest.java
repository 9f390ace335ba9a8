package io.faultline.core.finding;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watch that registers a registry with Flight Recorder once it runs, on a real in-process
 * recording: a finding raised before the recording is in it; once closed, nothing is.
 */
class ActiveFindingsInRecordingsTest {

  // Subjects shorter than 17 characters: JDK 17's string cache quirk (docs/jfr.md) cannot touch
  // them when another test of this fork stopped a recording from another thread.
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();

  @AfterEach
  void stopScheduler() {
    scheduler.shutdownNow();
  }

  @Test
  void aRecordingStartedAfterTheFindingWasRaisedHasIt() throws Exception {
    Findings findings = registry();
    findings.raise(Finding.of(ActiveFindingRecordingTest.PORTS, "raised-first").build());
    try (ActiveFindingsInRecordings watch =
            ActiveFindingsInRecordings.start(findings, scheduler, failures::add);
        Recording recording = new Recording()) {
      recording.enable("io.faultline.ActiveFinding");
      recording.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!watch.registered() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(watch.registered()).as("registered within 10 s").isTrue();
      recording.stop();
      assertThat(subjects(recording)).contains("raised-first");
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void onceClosedItRegistersNothing() throws Exception {
    Findings findings = registry();
    findings.raise(Finding.of(ActiveFindingRecordingTest.PORTS, "closed-watch").build());
    ActiveFindingsInRecordings watch =
        ActiveFindingsInRecordings.start(findings, scheduler, failures::add);
    watch.close();
    try (Recording recording = new Recording()) {
      recording.enable("io.faultline.ActiveFinding");
      recording.start();
      // Longer than a look: a look still scheduled would have registered by now.
      Thread.sleep(ActiveFindingsInRecordings.CHECK_EVERY.toMillis() + 500);
      recording.stop();
      assertThat(watch.registered()).isFalse();
      assertThat(subjects(recording)).doesNotContain("closed-watch");
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void whileNothingRecordsItLooksLessAndLessOften() throws Exception {
    List<Long> delays = new CopyOnWriteArrayList<>();
    ScheduledThreadPoolExecutor quick =
        new ScheduledThreadPoolExecutor(1) {
          @Override
          public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            delays.add(unit.toMillis(delay));
            return super.schedule(command, delays.size() < 7 ? 0 : 1, TimeUnit.HOURS);
          }
        };
    // Flight Recorder never initialized, whatever the other tests of this JVM did.
    try (ActiveFindingsInRecordings watch =
        ActiveFindingsInRecordings.start(registry(), () -> false, quick, failures::add)) {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (delays.size() < 7 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(delays).containsExactly(0L, 1000L, 2000L, 4000L, 8000L, 8000L, 8000L);
    } finally {
      quick.shutdownNow();
    }
    assertThat(failures).isEmpty();
  }

  private static Findings registry() {
    return new Findings(Duration.ofMinutes(10), Clock.systemUTC(), new RecordingLogger());
  }

  private static List<String> subjects(Recording recording) throws Exception {
    return ActiveFindingRecordingTest.dump(recording).stream()
        .map(e -> e.getString("subject"))
        .toList();
  }
}
