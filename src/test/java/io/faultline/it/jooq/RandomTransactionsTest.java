package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.GuardStats;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.TransactionGuard;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * top) on four threads: the ledger balances (the table holds exactly the rows of the levels that
 * committed up to a committed top level, none of a level rolled back), every thread ends at depth
 * 0, and the pool has no connection left out.
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
      s.execute("CREATE TABLE " + table + " (thread int, depth int, seq int)");
    }
    try (HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(THREADS))) {
      Guarded guarded = Guarded.on(pool, b -> b.nesting(NestingPolicy.ALLOW));
      ExecutorService executor = Executors.newFixedThreadPool(THREADS);
      long start = System.nanoTime();
      List<Future<ThreadLedger>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        results.add(
            executor.submit(
                () -> {
                  SplittableRandom random = new SplittableRandom(thread);
                  ThreadLedger ledger = new ThreadLedger(thread);
                  for (int i = 0; i < TRANSACTIONS / THREADS; i++) {
                    List<Integer> rows = new ArrayList<>();
                    try {
                      guarded.dsl.transaction(c -> level(c, table, ledger, 1, random, rows));
                      ledger.committed.addAll(rows);
                    } catch (Planned expected) {
                      // a failure that reached the top: rolled back
                    }
                  }
                  ledger.depth = TransactionGuard.openLevelsOnThisThread();
                  return ledger;
                }));
      }
      List<Integer> depths = new ArrayList<>();
      Set<String> expected = new HashSet<>();
      int inserted = 0;
      for (Future<ThreadLedger> f : results) {
        ThreadLedger ledger = f.get();
        depths.add(ledger.depth);
        ledger.committed.forEach(seq -> expected.add(ledger.thread + "/" + seq));
        inserted += ledger.nextSeq;
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

      // The ledger itself: what PostgreSQL kept is exactly what committed.
      Set<String> stored = new HashSet<>();
      try (Connection c = postgres.connect();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT thread, seq FROM " + table)) {
        while (rs.next()) {
          stored.add(rs.getInt(1) + "/" + rs.getInt(2));
        }
      }
      System.out.println(
          "[faultline-it] 10k ledger: "
              + inserted
              + " rows inserted, "
              + expected.size()
              + " committed, "
              + stored.size()
              + " in the table");
      assertThat(expected.size())
          .as("some rows were rolled back, some committed")
          .isPositive()
          .isLessThan(inserted);
      Set<String> missing = new HashSet<>(expected);
      missing.removeAll(stored);
      Set<String> extra = new HashSet<>(stored);
      extra.removeAll(expected);
      assertThat(missing).as("committed rows missing from the table").isEmpty();
      assertThat(extra).as("rows of rolled-back levels in the table").isEmpty();
    }
  }

  /** One thread's bookkeeping: its next row number and the rows that committed. */
  private static final class ThreadLedger {
    final int thread;
    final List<Integer> committed = new ArrayList<>();
    int nextSeq;
    int depth;

    ThreadLedger(int thread) {
      this.thread = thread;
    }
  }

  /**
   * One transaction level: a row, maybe nested levels, maybe a planned failure. {@code rows} gets
   * this level's row and those of the nested levels that committed into it; the caller keeps them
   * only if this level does not fail.
   */
  private static void level(
      Configuration c,
      String table,
      ThreadLedger ledger,
      int depth,
      SplittableRandom random,
      List<Integer> rows) {
    int seq = ledger.nextSeq++;
    DSL.using(c).execute("INSERT INTO " + table + " VALUES (?, ?, ?)", ledger.thread, depth, seq);
    rows.add(seq);
    if (depth < 4) {
      int children = random.nextInt(3);
      for (int i = 0; i < children; i++) {
        List<Integer> inner = new ArrayList<>();
        try {
          DSL.using(c)
              .transaction(nested -> level(nested, table, ledger, depth + 1, random, inner));
          rows.addAll(inner); // released into this level
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
