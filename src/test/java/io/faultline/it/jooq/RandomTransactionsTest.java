package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.GuardStats;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.TransactionGuard;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jooq.Configuration;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 10,000 random transactions (nested up to three deep, some failing inside, some rolled back at the
 * top) on four threads: the ledger balances, every thread ends at depth 0, and the pool has no
 * connection left out.
 */
@ExtendWith(RealServers.class)
class RandomTransactionsTest {

  private static final int TRANSACTIONS = 10_000;
  private static final int THREADS = 4;

  /** Thrown on purpose to make a level fail. */
  private static final class Planned extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  @Test
  void theLedgerBalancesAndNothingLeaks(PostgresServer postgres) throws Exception {
    String table = Guarded.table("rnd");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (thread int, n int)");
    }
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(THREADS))) {
      Guarded guarded = Guarded.on(pool, b -> b.nesting(NestingPolicy.ALLOW));
      ExecutorService executor = Executors.newFixedThreadPool(THREADS);
      long start = System.nanoTime();
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        results.add(
            executor.submit(
                () -> {
                  SplittableRandom random = new SplittableRandom(thread);
                  for (int i = 0; i < TRANSACTIONS / THREADS; i++) {
                    try {
                      guarded.dsl.transaction(c -> level(c, table, thread, 1, random));
                    } catch (Planned expected) {
                      // a failure that reached the top: rolled back
                    }
                  }
                  return TransactionGuard.openLevelsOnThisThread();
                }));
      }
      List<Integer> depths = new ArrayList<>();
      for (Future<Integer> f : results) {
        depths.add(f.get());
      }
      executor.shutdown();
      long millis = (System.nanoTime() - start) / 1_000_000;

      GuardStats stats = guarded.provider.guard().stats();
      System.out.println(
          "[faultline-it] 10k ledger: "
              + stats
              + " in "
              + millis
              + " ms; depth per thread "
              + depths
              + "; Hikari active "
              + pool.getHikariPoolMXBean().getActiveConnections());
      assertThat(stats.transactions()).isEqualTo(TRANSACTIONS);
      assertThat(stats.savepointsCreated())
          .isPositive()
          .isEqualTo(stats.savepointsReleased() + stats.savepointsRolledBack());
      assertThat(stats.savepointsRolledBack()).isPositive();
      assertThat(stats.rolledBack()).isPositive();
      assertThat(stats.failed()).isZero();
      assertThat(depths).containsOnly(0);
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
      assertThat(guarded.provider.guard().internalErrors()).isZero();
    }
  }

  /** One transaction level: a statement, maybe nested levels, maybe a planned failure. */
  private static void level(
      Configuration c, String table, int thread, int depth, SplittableRandom random) {
    DSL.using(c).execute("INSERT INTO " + table + " VALUES (?, ?)", thread, depth);
    if (depth < 4) {
      int children = random.nextInt(3);
      for (int i = 0; i < children; i++) {
        try {
          DSL.using(c).transaction(inner -> level(inner, table, thread, depth + 1, random));
        } catch (Planned caught) {
          // the inner level rolled back to its savepoint; this level carries on
        }
      }
    }
    if (random.nextInt(8) == 0) {
      throw new Planned();
    }
  }

  @Test
  void nothingIsLeftOpenOnAPoolThatCountsConnections(PostgresServer postgres) throws SQLException {
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(1))) {
      Guarded guarded = Guarded.on(pool, b -> b.nesting(NestingPolicy.FLATTEN));
      for (int i = 0; i < 50; i++) {
        try {
          guarded.dsl.transaction(
              c ->
                  DSL.using(c)
                      .transaction(
                          inner -> {
                            throw new Planned();
                          }));
        } catch (Planned expected) {
          // rolled back as a whole
        }
      }
      assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
      assertThat(guarded.provider.guard().stats().rolledBack()).isEqualTo(50);
    }
  }
}
