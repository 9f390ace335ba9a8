package io.faultline.jooqbench;

import io.faultline.jooq.CallSite;
import io.faultline.jooq.FrameworkFrames;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One {@link CallSite#current()} walk as the default budget runs them: ten a second, each after a
 * tenth of a second in which the walk's code ran nowhere. {@link CallSiteBenchmark} times walks in
 * a hot loop, where the JIT has compiled them; at ten a second the JIT compiles them late (after
 * minutes) or never, so a walk runs mostly in the interpreter and costs many times more. Each
 * measured iteration is one walk; the first 30 seconds of a process's walks are measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 300, batchSize = 1)
@Fork(1)
public class CallSiteAtBudgetBenchmark {

  /** Framework frames between the application frame and the walk (as in a jOOQ nested begin). */
  @Param({"14"})
  public int frames;

  /** The pause between walks at the default budget. */
  @Setup(Level.Iteration)
  public void pause() throws InterruptedException {
    Thread.sleep(100);
  }

  /** The walk. */
  @Benchmark
  public CallSite current() {
    return FrameworkFrames.below(frames, CallSite::current);
  }
}
