package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.pool.PoolFeedbackFindingTypes;
import io.faultline.jooq.pool.PoolFeedbackMonitor;
import io.faultline.jooq.pool.PoolFeedbackThresholds;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Channel.io PostgreSQL outage's feedback loop against a real PostgreSQL: many threads update
 * the same three rows and hold each row lock for 50 ms, so most of them queue on row locks. Through
 * a pool that may grow (minimumIdle 1, maximumPoolSize 20) HikariCP opens connection after
 * connection for the queued work and {@code POOL_GROWTH_UNDER_CONTENTION} is raised; through a
 * fixed pool of the same maximum (minimumIdle 20) the same contention is there but the pool does
 * not grow, and nothing is raised.
 */
@ExtendWith(RealServers.class)
class PoolFeedbackTest {

  private static final int THREADS = 24;
  private static final int HOT_ROWS = 3;
  private static final PoolFeedbackThresholds THRESHOLDS =
      new PoolFeedbackThresholds(Duration.ofSeconds(10), 3, 0.75, 2, Duration.ofSeconds(1));

  @Test
  void aGrowingPoolUnderLockContentionIsRaised(PostgresServer postgres) throws Exception {
    String table = hotRows(postgres);
    try (HikariDataSource pool =
        postgres.newPool(
            c -> {
              c.setPoolName("growing");
              c.setMinimumIdle(1);
              c.setMaximumPoolSize(20);
            })) {
      Findings findings = newFindings();
      List<Finding> seen = runWorkload(pool, table, findings, Duration.ofSeconds(8)).seen();

      assertThat(seen).as("POOL_GROWTH_UNDER_CONTENTION for the growing pool").isNotEmpty();
      Finding finding = seen.get(0);
      assertThat(finding.subject()).isEqualTo("growing");
      assertThat(finding.evidence()).containsKeys("total", "lockWaiters", "maximumPoolSize");
      System.out.println("raised: " + finding.message());
      // The workload is over: lock waits stop, and the finding clears on the next reading.
      assertThat(findings.active()).noneMatch(PoolFeedbackTest::isPoolFeedback);
    }
  }

  @Test
  void aFixedPoolUnderTheSameContentionIsNotRaised(PostgresServer postgres) throws Exception {
    String table = hotRows(postgres);
    try (HikariDataSource pool =
        postgres.newPool(
            c -> {
              c.setPoolName("fixed");
              c.setMinimumIdle(20);
              c.setMaximumPoolSize(20);
            })) {
      Findings findings = newFindings();
      Run run = runWorkload(pool, table, findings, Duration.ofSeconds(5));

      assertThat(run.seen()).as("no POOL_GROWTH_UNDER_CONTENTION for the fixed pool").isEmpty();
      // The control means something only if the contention was there: sessions queued on the row
      // locks as many as the threshold counts as contention, and the pool stayed at its size.
      assertThat(run.mostLockWaiters())
          .as("lock waiters seen by the monitor")
          .isGreaterThanOrEqualTo(THRESHOLDS.lockWaiters());
      assertThat(run.transactions()).as("the workload ran").isPositive();
      assertThat(run.largestPool()).as("the fixed pool did not grow").isEqualTo(20);
    }
  }

  private static Findings newFindings() {
    return new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
  }

  private static boolean isPoolFeedback(Finding f) {
    return f.type().equals(PoolFeedbackFindingTypes.POOL_GROWTH_UNDER_CONTENTION);
  }

  private static String hotRows(PostgresServer postgres) throws SQLException {
    String table = Guarded.table("hot");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, v int NOT NULL)");
      s.execute(
          "INSERT INTO " + table + " SELECT g, 0 FROM generate_series(1, " + HOT_ROWS + ") g");
    }
    return table;
  }

  /**
   * What one workload run showed.
   *
   * @param seen the pool-feedback findings raised while it ran
   * @param mostLockWaiters the most lock waiters any reading saw
   * @param largestPool the most connections any reading saw open
   * @param transactions the transactions the workload committed
   */
  private record Run(List<Finding> seen, int mostLockWaiters, int largestPool, long transactions) {}

  /**
   * Runs the contended workload through {@code pool} with a monitor reading every 200 ms, for at
   * most {@code limit} (less once the finding is raised), prints the readings, and returns the
   * pool-feedback findings seen while it ran, with the readings' peaks. Lock waiters drain
   * afterwards and the monitor reads once more, so the caller sees whether the finding cleared.
   */
  private static Run runWorkload(
      HikariDataSource pool, String table, Findings findings, Duration limit) throws Exception {
    List<Finding> seen = new ArrayList<>();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Optional<PoolFeedbackMonitor> started =
        PoolFeedbackMonitor.builder(pool)
            .thresholds(THRESHOLDS)
            .findings(findings)
            .meterRegistry(registry)
            .start(Duration.ofMillis(200));
    assertThat(started).as("a monitor for a HikariCP pool").isPresent();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong transactions = new AtomicLong();
    int mostLockWaiters = 0;
    int largestPool = 0;
    ExecutorService workers = Executors.newFixedThreadPool(THREADS);
    try (PoolFeedbackMonitor monitor = started.get()) {
      Thread.sleep(300); // a reading of the quiet pool first
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int row = 1 + t % HOT_ROWS;
        work.add(
            workers.submit(
                () -> {
                  while (!stop.get()) {
                    try (Connection c = pool.getConnection();
                        Statement s = c.createStatement()) {
                      c.setAutoCommit(false);
                      s.execute("UPDATE " + table + " SET v = v + 1 WHERE id = " + row);
                      s.execute("SELECT pg_sleep(0.05)");
                      c.commit();
                      transactions.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      long deadline = System.nanoTime() + limit.toNanos();
      PoolFeedbackMonitor.Reading printed = null;
      while (System.nanoTime() < deadline && seen.isEmpty()) {
        Thread.sleep(100);
        findings.active().stream().filter(PoolFeedbackTest::isPoolFeedback).forEach(seen::add);
        PoolFeedbackMonitor.Reading reading = monitor.lastReading();
        if (reading != null && reading != printed) {
          System.out.println("reading: " + reading);
          printed = reading;
          if (reading.contention() != null) {
            mostLockWaiters = Math.max(mostLockWaiters, reading.contention().lockWaiters());
          }
          if (reading.pool() != null) {
            largestPool = Math.max(largestPool, reading.pool().total());
          }
        }
      }
      stop.set(true);
      for (Future<?> f : work) {
        f.get(30, TimeUnit.SECONDS);
      }
      System.out.println(
          "transactions: " + transactions.get() + ", registry: " + registry.getMetersAsString());
      System.out.println("after the workload: " + monitor.readNow().orElse(null));
    } finally {
      stop.set(true);
      workers.shutdownNow();
    }
    return new Run(seen, mostLockWaiters, largestPool, transactions.get());
  }
}
