package io.faultline.kafka.bench;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.phase.ClientPhases;
import io.faultline.kafka.phase.ConnectionPhaseTracker;
import io.faultline.kafka.phase.PhaseMeters;
import io.faultline.kafka.phase.TransmitBoundDetector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One request's phase bookkeeping as the agent runs it ({@link ClientPhases}: the tracker, the
 * histograms, the sums and the {@code io.faultline.KafkaRequest} JDK Flight Recorder event), with
 * no recording, with a recording whose {@code slowerThan} (1 s) no request reaches, and with one
 * that records every request ({@code 0 ms}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RequestRecordingBenchmark {

  /** One client's phases, and a recording with {@link #slowerThan()} (none when null). */
  @State(Scope.Thread)
  public abstract static class Client {
    private Recording jfr;
    private ConnectionPhaseTracker tracker;
    private final TrackedRequests requests = new TrackedRequests();
    private long time;

    abstract String slowerThan();

    /** The client's phases and, with a threshold, a running recording. */
    @Setup(Level.Trial)
    public void setUp() {
      if (slowerThan() != null) {
        jfr = new Recording();
        jfr.enable("io.faultline.KafkaRequest").with("slowerThan", slowerThan());
        jfr.setMaxAge(Duration.ofSeconds(10));
        jfr.start();
      }
      ClientPhases phases =
          new ClientPhases(
              new PhaseMeters(new SimpleMeterRegistry(), KafkaMeterTags.DEFAULT),
              ClientType.PRODUCER,
              "producer-1",
              true,
              new TransmitBoundDetector(Duration.ofMillis(500), 20));
      tracker = phases.tracker("1");
    }

    /** Stops the recording. */
    @TearDown(Level.Trial)
    public void tearDown() {
      if (jfr != null) {
        jfr.close();
      }
    }

    /** The six tracker events of one request, timestamps given. */
    long request() {
      return requests.request(tracker, time += 100);
    }
  }

  /** No recording. */
  public static class NotRecording extends Client {
    @Override
    String slowerThan() {
      return null;
    }
  }

  /** A recording no request is slow enough for (the default, 1 s). */
  public static class RecordingSlowOnes extends Client {
    @Override
    String slowerThan() {
      return "1 s";
    }
  }

  /** A recording of every request. */
  public static class RecordingEvery extends Client {
    @Override
    String slowerThan() {
      return "0 ms";
    }
  }

  /** As the agent runs it when nobody records. */
  @Benchmark
  public long notRecording(NotRecording client) {
    return client.request();
  }

  /** While a recording with the default threshold runs (no event committed). */
  @Benchmark
  public long recordingSlowOnes(RecordingSlowOnes client) {
    return client.request();
  }

  /** While a recording takes every request (one event committed per request). */
  @Benchmark
  public long recordingEvery(RecordingEvery client) {
    return client.request();
  }
}
