package io.faultline.kafka.bench;

import io.faultline.kafka.ClientType;
import io.faultline.kafka.KafkaMeterTags;
import io.faultline.kafka.phase.MeteredPhaseRecorder;
import io.faultline.kafka.phase.PhaseMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the phase histograms cost at scrape time instead of per request: reading every timer's
 * buckets ({@link PhaseMeters.Timer#totals}) for {@code clients} producers, each with a connection
 * to three brokers that has seen Produce requests in every phase and the gap (21 timers, each
 * summing {@code clients} histograms).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PhaseScrapeBenchmark {

  @Param({"1", "100", "1000"})
  public int clients;

  private PhaseMeters meters;

  /** The producers' histograms, each with a spread of values. */
  @Setup
  public void setUp() {
    meters = new PhaseMeters(new SimpleMeterRegistry(), KafkaMeterTags.DEFAULT);
    for (int c = 0; c < clients; c++) {
      for (String node : new String[] {"1", "2", "3"}) {
        MeteredPhaseRecorder r =
            new MeteredPhaseRecorder(meters, ClientType.PRODUCER, "p" + c, node, null);
        for (long v = 10_000; v < 20_000_000_000L; v *= 3) {
          r.record((short) 0, v, v, v, v, v);
          r.record((short) 0, v, v, -1, v, v);
        }
      }
    }
  }

  /** Every timer's buckets, as one scrape reads them. */
  @Benchmark
  public void scrape(Blackhole bh) {
    for (PhaseMeters.Series s : meters.series()) {
      bh.consume(s.timer().totals(meters.buckets()));
    }
  }
}
