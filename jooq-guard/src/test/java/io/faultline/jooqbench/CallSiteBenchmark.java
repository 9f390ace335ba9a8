package io.faultline.jooqbench;

import io.faultline.jooq.CallSite;
import io.faultline.jooq.FrameworkFrames;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@link CallSite#current()} walk, the guard's cost at a walked nested begin, with {@code
 * frames} framework frames between this (the application) and the walk: about 16 lie between a
 * nested {@code ctx.transaction(...)} and the guard's walk in jOOQ 3.19. {@code baseline} makes the
 * same calls without walking.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CallSiteBenchmark {

  /** Framework frames between the application frame and the walk. */
  @Param({"6", "14", "30"})
  public int frames;

  /** The walk. */
  @Benchmark
  public CallSite current() {
    return FrameworkFrames.below(frames, CallSite::current);
  }

  /** The same frames without the walk. */
  @Benchmark
  public Object baseline() {
    return FrameworkFrames.below(frames, () -> this);
  }
}
