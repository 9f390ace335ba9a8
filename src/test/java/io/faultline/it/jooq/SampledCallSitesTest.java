package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.CallSite;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestingPolicy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.jooq.Configuration;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Nested call sites against a real PostgreSQL when more nested transactions begin than {@code
 * jooq.call-sites.walks-per-second}: fewer walks than begins, per-site counts that still rank and
 * add up, and a savepoint after a row lock named at its own line although its begin was not walked.
 */
@ExtendWith(RealServers.class)
class SampledCallSitesTest {

  /** Long enough for the sampler to see several 100 ms windows above its budget. */
  private static final int TRANSACTIONS = 2_000;

  private static String table(PostgresServer postgres) throws SQLException {
    String table = Guarded.table("sampled");
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, n int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, 0)");
    }
    return table;
  }

  private static Guarded guarded(PostgresServer postgres, int walksPerSecond) {
    return Guarded.on(
        postgres.dataSource(),
        b -> b.nesting(NestingPolicy.ALLOW).callSiteWalksPerSecond(walksPerSecond));
  }

  /**
   * {@code transactions} top-level transactions, each with three nested ones begun in {@link
   * #siteA} and one in {@link #siteB}.
   */
  private static void threeToOne(DSLContext dsl, String table, int transactions) {
    for (int t = 0; t < transactions; t++) {
      dsl.transaction(
          outer -> {
            for (int i = 0; i < 3; i++) {
              siteA(outer, table);
            }
            siteB(outer, table);
          });
    }
  }

  private static void siteA(Configuration outer, String table) {
    DSL.using(outer)
        .transaction(
            inner -> DSL.using(inner).execute("UPDATE " + table + " SET n = n + 1 WHERE id = 1"));
  }

  private static void siteB(Configuration outer, String table) {
    DSL.using(outer)
        .transaction(
            inner -> DSL.using(inner).execute("UPDATE " + table + " SET n = n + 1 WHERE id = 1"));
  }

  private static void lockThenSavepoint(DSLContext dsl, String table) {
    dsl.transaction(
        outer -> {
          DSL.using(outer).fetch("SELECT * FROM " + table + " WHERE id = 1 FOR UPDATE");
          DSL.using(outer).transaction(inner -> DSL.using(inner).execute("SELECT 1"));
        });
  }

  private static long countIn(Map<CallSite, Long> sites, String method) {
    return sites.entrySet().stream()
        .filter(e -> e.getKey().className().equals(SampledCallSitesTest.class.getName()))
        .filter(e -> e.getKey().methodName().equals(method))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  @Test
  void aboveTheBudgetCountsAreSampledAndStillRankTheSites(PostgresServer postgres)
      throws Exception {
    String table = table(postgres);
    // The budget from this machine's own rate, measured now with every begin walked: a tenth of
    // it, so the run below is above the budget even if the machine gets five times slower.
    // Warmed up first: a cold start runs at a third of the rate (measured), which would make the
    // budget too small and each walk stand for too many begins.
    Guarded baseline = guarded(postgres, 0);
    threeToOne(baseline.dsl, table, TRANSACTIONS / 10);
    long warmedUp = baseline.provider.guard().stats().nestedAllowed();
    long baselineStart = System.nanoTime();
    threeToOne(baseline.dsl, table, TRANSACTIONS / 5);
    double baselineRate =
        (baseline.provider.guard().stats().nestedAllowed() - warmedUp)
            / ((System.nanoTime() - baselineStart) / 1e9);
    int budget = Math.max(10, (int) (baselineRate / 10));
    Guarded guarded = guarded(postgres, budget);

    long start = System.nanoTime();
    threeToOne(guarded.dsl, table, TRANSACTIONS);
    double seconds = (System.nanoTime() - start) / 1e9;

    long begins = guarded.provider.guard().stats().nestedAllowed();
    long walks = guarded.provider.guard().callSiteWalks();
    Map<CallSite, Long> sites = guarded.provider.guard().nestedCallSites();
    long a = countIn(sites, "siteA");
    long b = countIn(sites, "siteB");
    long sum = sites.values().stream().mapToLong(Long::longValue).sum();
    System.out.printf(
        "[faultline-it] sampled call sites: baseline %.0f nested begins/s, budget %d walks/s;"
            + " %d nested begins in %.1f s (%.0f/s), %d walked; siteA %d, siteB %d, sum %d%n",
        baselineRate, budget, begins, seconds, begins / seconds, walks, a, b, sum);

    assertThat(begins).isEqualTo(4L * TRANSACTIONS);
    // Sampled: far fewer walks than begins (the budget plus the first window, which walks all).
    assertThat(walks).isLessThan(begins / 2);
    assertThat(sites.keySet()).hasSize(2);
    // Each walk counts for the begins skipped: the estimates add up to about the total and keep
    // the 3:1 ratio of the two sites. How close depends on how many begins a walk stood for in
    // this run (n, about begins / walks, with the machine's speed): a begin walked with chance 1/n
    // and
    // counted n times adds n - 1 to the sum's variance. The bounds are 4.5 standard deviations;
    // an estimate that dropped the skipped begins (a sum of about the walks) or gave them all to
    // one site falls far outside them.
    // The walks include the first window's, all of weight 1: the budget over the run's seconds
    // gives the larger, truer n when that window was a large share.
    double n = Math.max((double) begins / walks, begins / (budget * seconds));
    double sumSd = Math.sqrt((n - 1) / begins);
    double ratioSd = Math.sqrt(16 * n / (3.0 * begins)); // siteA has 3/4 of the begins, siteB 1/4
    System.out.printf(
        "[faultline-it] %.1f begins a walk: sum/begins %.3f (1 ± %.3f), siteA/siteB %.2f (3 ×÷ %.2f)%n",
        n, (double) sum / begins, 4.5 * sumSd, (double) a / b, 1 + 4.5 * ratioSd);
    assertThat((double) sum / begins).isBetween(1 - 4.5 * sumSd, 1 + 4.5 * sumSd);
    assertThat((double) a / b).isBetween(3 / (1 + 4.5 * ratioSd), 3 * (1 + 4.5 * ratioSd));
  }

  @Test
  void atABudgetOfZeroEveryBeginIsWalkedAndCountedExactly(PostgresServer postgres)
      throws Exception {
    String table = table(postgres);
    Guarded guarded = guarded(postgres, 0);

    threeToOne(guarded.dsl, table, 500);

    Map<CallSite, Long> sites = guarded.provider.guard().nestedCallSites();
    assertThat(guarded.provider.guard().callSiteWalks()).isEqualTo(2_000);
    assertThat(countIn(sites, "siteA")).isEqualTo(1_500);
    assertThat(countIn(sites, "siteB")).isEqualTo(500);
  }

  @Test
  void aSavepointAfterARowLockIsNamedAtItsLineWhenItsBeginWasNotWalked(PostgresServer postgres)
      throws Exception {
    String table = table(postgres);
    Guarded guarded = guarded(postgres, 10);

    // Past the budget first, so the locked transaction's nested begin is most likely sampled out.
    threeToOne(guarded.dsl, table, 300);
    long walksBefore = guarded.provider.guard().callSiteWalks();
    lockThenSavepoint(guarded.dsl, table);
    boolean walked = guarded.provider.guard().callSiteWalks() > walksBefore;
    System.out.println("[faultline-it] the locked transaction's nested begin walked: " + walked);

    assertThat(guarded.findings.active())
        .filteredOn(f -> f.id().equals(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.id()))
        .extracting(Finding::subject)
        .singleElement()
        .asString()
        .contains(SampledCallSitesTest.class.getName() + ".lambda$lockThenSavepoint$");
  }
}
