package io.faultline.it.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.CallSite;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.TransactionGuard;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
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
  private static final int TRANSACTIONS = 4_000;

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
   * #siteA} and one in {@link #siteB}; {@code weights}, when not null, is told after each nested
   * one.
   */
  private static void threeToOne(
      DSLContext dsl, String table, int transactions, WalkWeights weights) {
    for (int t = 0; t < transactions; t++) {
      dsl.transaction(
          outer -> {
            for (int i = 0; i < 3; i++) {
              siteA(outer, table);
              if (weights != null) {
                weights.afterBeginAt("siteA");
              }
            }
            siteB(outer, table);
            if (weights != null) {
              weights.afterBeginAt("siteB");
            }
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

  /**
   * The weight each walk counted, read off the guard between nested begins (one thread, so a change
   * in the walks is one begin's): a walk that counts {@code n} adds {@code n (n - 1)} to an
   * unbiased estimate of its site's variance. The sampler's chance changes within a second (it
   * falls once the second's budget is walked), so a variance from the average weight alone is too
   * small.
   */
  private static final class WalkWeights {
    private final TransactionGuard guard;
    private final Map<String, Long> counted = new HashMap<>();
    private final Map<String, Double> variance = new HashMap<>();
    private long walks;
    private long total;
    private long largest;

    WalkWeights(TransactionGuard guard) {
      this.guard = guard;
    }

    void afterBeginAt(String site) {
      long walksNow = guard.callSiteWalks();
      if (walksNow == walks) {
        return;
      }
      walks = walksNow;
      long totalNow = guard.nestedCallSites().values().stream().mapToLong(Long::longValue).sum();
      long n = totalNow - total;
      total = totalNow;
      largest = Math.max(largest, n);
      counted.merge(site, n, Long::sum);
      variance.merge(site, (double) n * (n - 1), Double::sum);
    }

    long counted(String site) {
      return counted.getOrDefault(site, 0L);
    }

    double variance(String site) {
      return variance.getOrDefault(site, 0.0);
    }
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
    threeToOne(baseline.dsl, table, TRANSACTIONS / 4, null);
    long warmedUp = baseline.provider.guard().stats().nestedAllowed();
    long baselineStart = System.nanoTime();
    threeToOne(baseline.dsl, table, TRANSACTIONS / 10, null);
    double baselineRate =
        (baseline.provider.guard().stats().nestedAllowed() - warmedUp)
            / ((System.nanoTime() - baselineStart) / 1e9);
    int budget = Math.max(10, (int) (baselineRate / 10));
    Guarded guarded = guarded(postgres, budget);

    WalkWeights weights = new WalkWeights(guarded.provider.guard());
    long start = System.nanoTime();
    threeToOne(guarded.dsl, table, TRANSACTIONS, weights);
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
    // Every walk was seen with its weight, and the weights are the counts.
    assertThat(weights.counted("siteA")).isEqualTo(a);
    assertThat(weights.counted("siteB")).isEqualTo(b);
    // Each walk counts for the begins skipped: the estimates add up to about the total and keep
    // the 3:1 ratio of the two sites, within 4.5 standard deviations estimated from the weights
    // the walks counted. An estimate that dropped the skipped begins (a sum of about the walks) or
    // gave them all to one site falls far outside them.
    double trueA = 3.0 * TRANSACTIONS;
    double trueB = TRANSACTIONS;
    double sumSd = Math.sqrt(weights.variance("siteA") + weights.variance("siteB")) / begins;
    double ratioSd =
        Math.sqrt(
            weights.variance("siteA") / (trueA * trueA)
                + weights.variance("siteB") / (trueB * trueB));
    System.out.printf(
        "[faultline-it] %.1f begins a walk, the largest weight %d: sum/begins %.3f (1 ± %.3f),"
            + " siteA/siteB %.2f (3 ×÷ %.2f)%n",
        (double) begins / walks,
        weights.largest,
        (double) sum / begins,
        4.5 * sumSd,
        (double) a / b,
        1 + 4.5 * ratioSd);
    assertThat((double) sum / begins).isBetween(1 - 4.5 * sumSd, 1 + 4.5 * sumSd);
    assertThat((double) a / b).isBetween(3 / (1 + 4.5 * ratioSd), 3 * (1 + 4.5 * ratioSd));
  }

  @Test
  void atABudgetOfZeroEveryBeginIsWalkedAndCountedExactly(PostgresServer postgres)
      throws Exception {
    String table = table(postgres);
    Guarded guarded = guarded(postgres, 0);

    threeToOne(guarded.dsl, table, 500, null);

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
    threeToOne(guarded.dsl, table, 300, null);
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
