package io.faultline.kafka.bench;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.phase.ConnectionPhaseTracker;
import io.faultline.kafka.phase.MeteredPhaseRecorder;
import io.faultline.kafka.phase.NodePhaseStats;
import io.faultline.kafka.phase.PhaseMeters;
import io.faultline.kafka.phase.PhaseRecorder;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost per request of phase bookkeeping: the six tracker events of one request (created, first
 * bytes, send completed, a TCP sample, response started, response completed). Run it with the
 * command in docs/kafka.md; the goal is ≤ 100 ns per request, meters included.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PhaseTrackerBenchmark {

  private ConnectionPhaseTracker bare;
  private ConnectionPhaseTracker metered;
  private ConnectionPhaseTracker timers;
  private ConnectionPhaseTracker stats;
  private long sink;
  private final TrackedRequests requests = new TrackedRequests();
  private int correlation;
  private long time;
  private long acked = ConnectionPhaseTracker.SYN_OCTETS;

  /** Fresh trackers per trial. */
  @Setup
  public void setUp() {
    PhaseRecorder summing = (api, q, t, d, r, rc) -> sink += q + t + d + r + rc;
    bare = new ConnectionPhaseTracker(summing, true);
    stats = new ConnectionPhaseTracker(new NodePhaseStats(), true);
    metered =
        new ConnectionPhaseTracker(
            new MeteredPhaseRecorder(
                new PhaseMeters(new SimpleMeterRegistry(), KafkaMeterTags.DEFAULT),
                ClientType.PRODUCER,
                "bench",
                "1",
                new NodePhaseStats()),
            true);
    timers = new ConnectionPhaseTracker(new TimerRecorder(new SimpleMeterRegistry()), true);
  }

  /**
   * The recorder as it was before the histograms: six {@code Timer.record} calls per request into
   * Micrometer timers, then the KAFKA_TRANSMIT_BOUND sums. Kept as the baseline.
   */
  static final class TimerRecorder implements PhaseRecorder {
    private final Timer[] phases = new Timer[6];
    private final Timer gap;
    private final NodePhaseStats stats = new NodePhaseStats();

    TimerRecorder(SimpleMeterRegistry registry) {
      for (int i = 0; i < phases.length; i++) {
        phases[i] = Timer.builder("phase").tag("phase", Integer.toString(i)).register(registry);
      }
      gap = Timer.builder("gap").register(registry);
    }

    @Override
    public void record(short api, long q, long t, long d, long r, long rc) {
      phases[0].record(q, TimeUnit.NANOSECONDS);
      phases[1].record(t, TimeUnit.NANOSECONDS);
      phases[2].record(d, TimeUnit.NANOSECONDS);
      phases[3].record(r, TimeUnit.NANOSECONDS);
      phases[5].record(rc, TimeUnit.NANOSECONDS);
      gap.record(q + t + d + rc, TimeUnit.NANOSECONDS);
      stats.record(api, q, t, d, r, rc);
    }
  }

  private long request(ConnectionPhaseTracker tracker, long t0) {
    return requests.request(tracker, t0);
  }

  /** Tracker bookkeeping only, timestamps given (what the tracker itself costs). */
  @Benchmark
  public long trackerOnly() {
    time += 100;
    return request(bare, time) + sink;
  }

  /** Tracker plus the advice's six {@code System.nanoTime()} reads. */
  @Benchmark
  public void trackerWithNanoTime(Blackhole bh) {
    int c = correlation++;
    bare.requestCreated(c, (short) 0, true, System.nanoTime());
    bare.bytesWritten(1_000, System.nanoTime());
    bare.sendCompleted(1_000, System.nanoTime());
    acked += 1_000;
    bare.tcpSample(acked, System.nanoTime());
    bare.responseStarted(System.nanoTime());
    bh.consume(bare.responseCompleted(c, System.nanoTime()));
  }

  /** Tracker feeding the KAFKA_TRANSMIT_BOUND sums. */
  @Benchmark
  public long trackerWithNodeStats() {
    time += 100;
    return request(stats, time);
  }

  /** Baseline: the tracker feeding six Micrometer {@code Timer.record} calls and the sums. */
  @Benchmark
  public long trackerWithTimerRecordBaseline() {
    time += 100;
    return request(timers, time);
  }

  /**
   * The tracker feeding {@link MeteredPhaseRecorder} (histograms, published as FunctionTimers at
   * scrape time) and the sums: what the agent runs.
   */
  @Benchmark
  public long trackerWithMicrometer() {
    time += 100;
    return request(metered, time);
  }
}
