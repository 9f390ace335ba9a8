package io.faultline.jooqbench;

import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.TransactionProvider;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultConnectionProvider;
import org.jooq.impl.DefaultTransactionProvider;
import org.jooq.tools.jdbc.MockConnection;
import org.jooq.tools.jdbc.MockResult;
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

/**
 * The guard's own CPU cost per transaction, without a database: jOOQ over a {@link MockConnection}
 * that answers every statement with one updated row, so what is measured is jOOQ plus the provider.
 * The workloads are those of the TPS benchmark against PostgreSQL (a read and an update; nested:
 * the update in a nested transaction, a savepoint), bare {@link DefaultTransactionProvider} against
 * {@link GuardedTransactionProvider} configured as there (statement and lock timeouts, meters,
 * findings). The difference of a pair is the guard's cost per transaction.
 *
 * <p>This class sits outside {@code io.faultline.jooq} on purpose: the guard skips its own package
 * when it looks for the application's call site, and here the benchmark is the application.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GuardOverheadBenchmark {

  private static final String READ = "SELECT counter FROM bench WHERE id = ?";
  private static final String UPDATE = "UPDATE bench SET counter = counter + 1 WHERE id = ?";

  private DSLContext bare;
  private DSLContext guarded;

  /** One connection per provider, as a pool hands one connection to a transaction. */
  @Setup
  public void setUp() {
    bare = dsl(false);
    guarded = dsl(true);
  }

  private static DSLContext dsl(boolean guard) {
    MockConnection connection =
        new MockConnection(ctx -> new MockResult[] {new MockResult(1, null)});
    DefaultConnectionProvider connections = new DefaultConnectionProvider(connection);
    TransactionProvider provider = new DefaultTransactionProvider(connections);
    if (guard) {
      provider =
          GuardedTransactionProvider.wrap(provider)
              .statementTimeout(Duration.ofSeconds(30))
              .lockTimeout(Duration.ofSeconds(10))
              .meterRegistry(new SimpleMeterRegistry())
              .findings(new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("bench")))
              .build();
    }
    return DSL.using(
        new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(provider));
  }

  /** A read and an update in one transaction, bare jOOQ. */
  @Benchmark
  public int flatBare() {
    return flat(bare);
  }

  /** A read and an update in one transaction, guarded. */
  @Benchmark
  public int flatGuarded() {
    return flat(guarded);
  }

  /** A read, then the update in a nested transaction (a savepoint), bare jOOQ. */
  @Benchmark
  public int nestedBare() {
    return nested(bare);
  }

  /** A read, then the update in a nested transaction (a savepoint), guarded. */
  @Benchmark
  public int nestedGuarded() {
    return nested(guarded);
  }

  private static int flat(DSLContext dsl) {
    return dsl.transactionResult(
        tx -> {
          DSLContext ctx = tx.dsl();
          ctx.execute(READ, 1);
          return ctx.execute(UPDATE, 1);
        });
  }

  private static int nested(DSLContext dsl) {
    return dsl.transactionResult(
        tx -> {
          DSLContext ctx = tx.dsl();
          ctx.execute(READ, 1);
          return ctx.transactionResult(inner -> inner.dsl().execute(UPDATE, 1));
        });
  }
}
