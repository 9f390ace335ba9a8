package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.postgres.HealthFindingTypes;
import io.faultline.jooq.postgres.HealthSample;
import io.faultline.jooq.postgres.PostgresHealthMetrics;
import io.faultline.jooq.postgres.SlruNames;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Channel.io PostgreSQL outage's database side: one long transaction open, the MultiXact
 * pattern under load, then sessions reading the rows whose old versions carry MultiXacts. The
 * MultiXact member SLRU hit ratio is read from pg_stat_slru deltas by {@link
 * PostgresHealthMetrics}.
 *
 * <p>Why this falls: the pattern ({@code FOR UPDATE}, then a subtransaction that updates the row)
 * gives each row's old version an <em>updating</em> MultiXact {locker, updater} as xmax, which has
 * no hint bit, so every visibility check of that version looks its members up. The long REPEATABLE
 * READ transaction keeps those versions from being pruned. Rows locked in random order, one top
 * transaction each, spread the members over far more pages than PostgreSQL 15's 16 member buffers;
 * point reads of random ids then touch them in an order unrelated to creation.
 */
@ExtendWith(RealServers.class)
class SlruHealthTest {

  private static final int ROWS = 60_000;
  private static final int THREADS = 4;
  private static final int READS = 20_000;
  private static final double THRASH_RATIO = 0.9;

  @Test
  void theMultiXactMemberHitRatioFallsUnderThePattern(PostgresServer postgres) throws Exception {
    String table = Guarded.table("slru");
    Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Connection setup = postgres.connect();
        Statement s = setup.createStatement()) {
      // fillfactor leaves room on each page for the new versions (HOT chains on the same page)
      s.execute(
          "CREATE TABLE " + table + " (id int PRIMARY KEY, v int NOT NULL) WITH (fillfactor = 50)");
      s.execute("INSERT INTO " + table + " SELECT g, 0 FROM generate_series(1, " + ROWS + ") g");
      s.execute("ANALYZE " + table);
    }
    try (Connection longTx = postgres.connect();
        PostgresHealthMetrics health =
            PostgresHealthMetrics.builder(
                    postgres.jdbcUrl(), postgres.username(), postgres.password())
                .interval(Duration.ofHours(1))
                .longTransaction(Duration.ofSeconds(1))
                .multixactMinAccesses(100)
                // The threshold this test proves the pattern always crosses (below): the finding
                // then follows from the real poll every run, not only when the ratio happens to
                // fall under the default 0.5 (HealthRulesTest covers the decision at any
                // threshold).
                .multixactHitRatio(THRASH_RATIO)
                .findings(findings)
                .build()) {
      health.bindTo(registry);
      // The long transaction: a snapshot older than every MultiXact, so no old version is pruned.
      longTx.setAutoCommit(false);
      longTx.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try (Statement s = longTx.createStatement()) {
        s.execute("SELECT count(*) FROM " + table);
      }
      HealthSample before = health.pollNow();

      // The pattern, server-side for speed: per row, in random order, one top-level transaction
      // that locks it FOR UPDATE and updates it in a subtransaction (the EXCEPTION block).
      long start = System.nanoTime();
      onThreads(
          postgres,
          thread ->
              "SET synchronous_commit = off; DO $$ DECLARE r int; BEGIN FOR r IN SELECT id FROM "
                  + table
                  + " WHERE id % "
                  + THREADS
                  + " = "
                  + thread
                  + " ORDER BY random() LOOP PERFORM 1 FROM "
                  + table
                  + " WHERE id = r FOR UPDATE; BEGIN UPDATE "
                  + table
                  + " SET v = v + 1 WHERE id = r; EXCEPTION WHEN others THEN RAISE; END; COMMIT;"
                  + " END LOOP; END $$");
      long patternMillis = (System.nanoTime() - start) / 1_000_000;
      HealthSample afterPattern = health.pollNow();
      Thread.sleep(1100);

      // Random point reads: each visits a HOT chain whose first version's xmax is a MultiXact.
      onThreads(
          postgres,
          thread ->
              "DO $$ DECLARE r int; BEGIN FOR i IN 1.."
                  + READS
                  + " LOOP r := 1 + floor(random() * "
                  + ROWS
                  + ")::int; PERFORM v FROM "
                  + table
                  + " WHERE id = r; END LOOP; END $$");
      HealthSample duringReads = health.pollNow();
      longTx.rollback();

      System.out.println(
          "[faultline-it] SLRU: pattern on " + ROWS + " rows in " + patternMillis + " ms");
      print("before the pattern", before);
      print("after the pattern", afterPattern);
      print("during the reads", duringReads);
      System.out.println(
          "[faultline-it] SLRU: gauge faultline.pg.slru.hit.ratio{slru=multixact_member} = "
              + registry
                  .get("faultline.pg.slru.hit.ratio")
                  .tag("slru", SlruNames.MULTIXACT_MEMBER)
                  .gauge()
                  .value()
              + ", findings "
              + findings.active().stream().map(Finding::id).toList());

      assertThat(afterPattern.accesses().get(SlruNames.MULTIXACT_MEMBER)).isPositive();
      assertThat(afterPattern.multixactAge()).isGreaterThanOrEqualTo(ROWS);
      assertThat(findings.active())
          .filteredOn(f -> f.id().equals(HealthFindingTypes.LONG_TRANSACTION.id()))
          .singleElement()
          .satisfies(f -> assertThat(f.evidence()).containsKey("pid"));
      double ratio = duringReads.hitRatios().getOrDefault(SlruNames.MULTIXACT_MEMBER, Double.NaN);
      assertThat(duringReads.accesses().get(SlruNames.MULTIXACT_MEMBER))
          .as("member lookups during the reads")
          .isGreaterThan(READS);
      assertThat(ratio).as("multixact_member hit ratio during the reads").isLessThan(THRASH_RATIO);
      assertThat(findings.active())
          .filteredOn(f -> f.id().equals(HealthFindingTypes.MULTIXACT_SLRU_THRASH.id()))
          .singleElement()
          .satisfies(
              f ->
                  assertThat(f.evidence())
                      .containsEntry("hitRatio", ratio)
                      .containsEntry(
                          "accesses", duringReads.accesses().get(SlruNames.MULTIXACT_MEMBER)));
    }
  }

  /** Runs {@code sql.apply(thread)} on {@link #THREADS} connections at once, autocommit. */
  private static void onThreads(PostgresServer postgres, IntFunction<String> sql) throws Exception {
    ExecutorService executor = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        work.add(
            executor.submit(
                () -> {
                  try (Connection c = postgres.connect();
                      Statement s = c.createStatement()) {
                    for (String part : sql.apply(thread).split("; (?=DO )")) {
                      s.execute(part);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : work) {
        f.get();
      }
    } finally {
      executor.shutdown();
    }
  }

  private static void print(String when, HealthSample sample) {
    System.out.println(
        "[faultline-it] SLRU "
            + when
            + ": multixact_member hit ratio "
            + sample.hitRatios().get(SlruNames.MULTIXACT_MEMBER)
            + " over "
            + sample.accesses().get(SlruNames.MULTIXACT_MEMBER)
            + " accesses; multixact_offset "
            + sample.hitRatios().get("multixact_offset")
            + "; mxid_age "
            + sample.multixactAge()
            + "; oldest transaction "
            + Math.round(sample.oldestTransactionSeconds())
            + " s (pid "
            + sample.oldestPid()
            + ")");
  }

  @Test
  void aPoolWithNoConnectionToLendIsNotAnUnreachableDatabase(PostgresServer postgres)
      throws Exception {
    Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
    try (HikariDataSource pool =
            postgres.newPool(
                c -> {
                  c.setMaximumPoolSize(1);
                  c.setConnectionTimeout(500);
                });
        Connection held = pool.getConnection();
        PostgresHealthMetrics health =
            PostgresHealthMetrics.builder(pool)
                .interval(Duration.ofHours(1))
                .findings(findings)
                .build()) {
      assertThat(held.isValid(1)).isTrue();
      assertThat(health.pollNow()).as("no connection to lend: no sample").isNull();
      assertThat(findings.active())
          .extracting(Finding::id)
          .doesNotContain(HealthFindingTypes.UNREACHABLE.id());
    }
    // A pool whose database cannot be reached times out with that failure as the cause: reported.
    try (HikariDataSource down =
            new HikariDataSource(
                new com.zaxxer.hikari.HikariConfig() {
                  {
                    setJdbcUrl("jdbc:postgresql://127.0.0.1:1/none");
                    setUsername("u");
                    setPassword("p");
                    setConnectionTimeout(1000);
                    setInitializationFailTimeout(-1);
                  }
                });
        PostgresHealthMetrics health =
            PostgresHealthMetrics.builder(down)
                .interval(Duration.ofHours(1))
                .findings(findings)
                .build()) {
      assertThat(health.pollNow()).isNull();
      assertThat(findings.active())
          .extracting(Finding::id)
          .contains(HealthFindingTypes.UNREACHABLE.id());
    }
  }

  @Test
  void anUnreachableDatabaseIsAFindingNotAnException() {
    Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
    try (PostgresHealthMetrics health =
        PostgresHealthMetrics.builder("jdbc:postgresql://127.0.0.1:1/none", "u", "p")
            .findings(findings)
            .build()) {
      assertThat(health.pollNow()).isNull();
      assertThat(findings.active())
          .extracting(Finding::id)
          .containsExactly(HealthFindingTypes.UNREACHABLE.id());
    }
  }
}
