package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.NestingPolicy;
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
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seed 004's database side: one long transaction open, the MultiXact pattern under load, then
 * sessions reading the rows whose old versions carry MultiXacts. The MultiXact member SLRU hit
 * ratio is read from pg_stat_slru deltas by {@link PostgresHealthMetrics}.
 */
@ExtendWith(RealServers.class)
class SlruHealthTest {

  private static final int ROWS = 20_000;

  @Test
  void theMultiXactMemberHitRatioFallsUnderThePattern(PostgresServer postgres) throws Exception {
    String table = Guarded.table("slru");
    Findings findings = new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("it"));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Connection setup = postgres.connect();
        Statement s = setup.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, v int NOT NULL)");
      s.execute("INSERT INTO " + table + " SELECT g, 0 FROM generate_series(1, " + ROWS + ") g");
    }
    try (Connection longTx = postgres.connect();
        HikariDataSource pool = postgres.newPool(c -> c.setMaximumPoolSize(4));
        PostgresHealthMetrics health =
            PostgresHealthMetrics.builder(
                    postgres.jdbcUrl(), postgres.username(), postgres.password())
                .interval(Duration.ofHours(1))
                .longTransaction(Duration.ofSeconds(1))
                .multixactMinAccesses(100)
                .findings(findings)
                .build()) {
      health.bindTo(registry);
      // The long transaction: holds back the horizon so nothing behind it is cleaned up.
      longTx.setAutoCommit(false);
      try (Statement s = longTx.createStatement()) {
        s.execute("SELECT txid_current()");
      }
      health.pollNow();

      Guarded guarded = Guarded.on(pool, b -> b.nesting(NestingPolicy.ALLOW));
      ExecutorService executor = Executors.newFixedThreadPool(4);
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        work.add(
            executor.submit(
                () -> {
                  SplittableRandom random = new SplittableRandom(thread);
                  for (int i = 0; i < 100; i++) {
                    int from = 1 + random.nextInt(ROWS - 100);
                    String range = " WHERE id BETWEEN " + from + " AND " + (from + 99);
                    guarded.dsl.transaction(
                        c -> {
                          DSL.using(c).fetch("SELECT id FROM " + table + range + " FOR UPDATE");
                          DSL.using(c)
                              .transaction(
                                  inner ->
                                      DSL.using(inner)
                                          .execute("UPDATE " + table + " SET v = v + 1" + range));
                        });
                  }
                }));
      }
      for (Future<?> f : work) {
        f.get();
      }
      HealthSample afterPattern = health.pollNow();
      Thread.sleep(1100);
      // Readers walk every row: each old version's xmax is a MultiXact whose members are looked
      // up in the SLRU, in random order of creation.
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        readers.add(
            executor.submit(
                () -> {
                  for (int i = 0; i < 3; i++) {
                    guarded.dsl.fetch("SELECT count(*) FROM " + table + " WHERE v >= 0");
                  }
                }));
      }
      for (Future<?> f : readers) {
        f.get();
      }
      executor.shutdown();
      HealthSample afterReads = health.pollNow();
      longTx.rollback();

      print("after the pattern", afterPattern);
      print("after the readers", afterReads);
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
      assertThat(afterPattern.multixactAge()).isPositive();
      assertThat(findings.active())
          .extracting(Finding::id)
          .contains(HealthFindingTypes.LONG_TRANSACTION.id());
      assertThat(findings.active())
          .filteredOn(f -> f.id().equals(HealthFindingTypes.LONG_TRANSACTION.id()))
          .singleElement()
          .satisfies(f -> assertThat(f.evidence()).containsKey("pid"));
      double ratio = afterReads.hitRatios().getOrDefault(SlruNames.MULTIXACT_MEMBER, Double.NaN);
      if (ratio < 0.5 && afterReads.accesses().get(SlruNames.MULTIXACT_MEMBER) >= 100) {
        assertThat(findings.active())
            .extracting(Finding::id)
            .contains(HealthFindingTypes.MULTIXACT_SLRU_THRASH.id());
      }
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
