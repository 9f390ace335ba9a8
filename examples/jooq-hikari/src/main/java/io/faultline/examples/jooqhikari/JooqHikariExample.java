package io.faultline.examples.jooqhikari;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardStats;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.NestedTransactionException;
import io.faultline.jooq.NestingPolicy;
import io.faultline.jooq.timeout.StatementTimeoutException;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultTransactionProvider;

/**
 * jooq-guard on plain jOOQ and HikariCP: a nested transaction after {@code SELECT … FOR UPDATE}
 * under the WARN policy (counted, two findings), the same nesting refused under FAIL (no savepoint
 * is ever made), a runaway query stopped by the statement timeout, then the guard's stats and
 * meters.
 *
 * <p>Run: {@code java -cp ... io.faultline.examples.jooqhikari.JooqHikariExample JDBC_URL USER
 * PASSWORD}
 */
public final class JooqHikariExample {

  /**
   * What the example observed.
   *
   * @param warnStats the WARN guard's counts
   * @param failStats the FAIL guard's counts
   * @param findings the findings raised, active at the end
   * @param refused the message of the refused nested transaction
   * @param timedOut the message of the statement timeout
   * @param counters both guards' counters, {@code name{tag=value,...}} to count; the {@code guard}
   *     tag tells them apart
   */
  public record Result(
      GuardStats warnStats,
      GuardStats failStats,
      List<Finding> findings,
      String refused,
      String timedOut,
      Map<String, Double> counters) {}

  private JooqHikariExample() {}

  /** Connects to {@code JDBC_URL USER PASSWORD} with a HikariCP pool and runs the example. */
  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("usage: JooqHikariExample JDBC_URL USER PASSWORD");
      System.exit(2);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(args[0]);
    config.setUsername(args[1]);
    config.setPassword(args[2]);
    config.setMaximumPoolSize(4);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      run(pool, System.out);
    }
  }

  /** Runs the three scenes on {@code dataSource}, printing what happens to {@code out}. */
  public static Result run(DataSource dataSource, PrintStream out) {
    MeterRegistry registry = new SimpleMeterRegistry();
    Findings findings =
        new Findings(Duration.ofMinutes(1), Clock.systemUTC(), System.getLogger("faultline"));
    DataSourceConnectionProvider connections = new DataSourceConnectionProvider(dataSource);

    // The guard decorates jOOQ's own provider; jOOQ keeps making savepoints for nested levels.
    GuardedTransactionProvider warn =
        GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
            .nesting(NestingPolicy.WARN)
            .statementTimeout(Duration.ofMillis(500))
            .meterRegistry(registry)
            .tags("guard", "warn")
            .findings(findings)
            .build();
    // A second guard on the same registry: without a tag of its own its meters would have the
    // first one's ids, and Micrometer would silently keep only the first. Two databases would
    // say which database instead, e.g. tags("db", "orders") and tags("db", "billing").
    GuardedTransactionProvider fail =
        GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
            .nesting(NestingPolicy.FAIL)
            .meterRegistry(registry)
            .tags("guard", "fail")
            .findings(findings)
            .build();
    DSLContext warnDsl = dsl(connections, warn);
    DSLContext failDsl = dsl(connections, fail);

    String table = "example_account_" + UUID.randomUUID().toString().substring(0, 8);
    warnDsl.execute("create table " + table + " (id int primary key, balance int not null)");
    try {
      warnDsl.execute("insert into " + table + " values (1, 100)");

      out.println("== 1. WARN: a nested transaction after SELECT ... FOR UPDATE");
      warnDsl.transaction(
          outer -> {
            outer.dsl().fetch("select * from " + table + " where id = 1 for update");
            outer
                .dsl()
                .transaction(
                    inner ->
                        inner
                            .dsl()
                            .execute(
                                "update " + table + " set balance = balance - 1 where id = 1"));
          });
      for (Finding f : findings.active()) {
        out.println("   finding " + f.id() + ": " + f.message());
      }

      out.println("== 2. FAIL: the same nesting is refused before any savepoint");
      String[] refused = {null};
      failDsl.transaction(
          outer -> {
            outer.dsl().fetch("select * from " + table + " where id = 1 for update");
            try {
              outer.dsl().transaction(inner -> inner.dsl().execute("select 1"));
            } catch (NestedTransactionException e) {
              refused[0] = e.getMessage();
            }
          });
      out.println("   refused: " + refused[0]);

      out.println("== 3. A runaway query under statement_timeout = 500 ms");
      String timedOut = null;
      try {
        warnDsl.transaction(tx -> tx.dsl().execute("select pg_sleep(10)"));
      } catch (StatementTimeoutException e) {
        timedOut = e.getMessage();
      }
      out.println("   stopped: " + timedOut);

      GuardStats warnStats = warn.guard().stats();
      GuardStats failStats = fail.guard().stats();
      Map<String, Double> counters = counters(registry);
      out.println("== Stats (WARN guard): " + warnStats);
      out.println("== Stats (FAIL guard): " + failStats);
      out.println("== Meters (both guards, one registry):");
      counters.forEach((name, value) -> out.println("   " + name + " = " + value));
      return new Result(warnStats, failStats, findings.active(), refused[0], timedOut, counters);
    } finally {
      warnDsl.execute("drop table if exists " + table);
      warn.guard().unbindMeters();
      fail.guard().unbindMeters();
    }
  }

  private static DSLContext dsl(
      DataSourceConnectionProvider connections, GuardedTransactionProvider provider) {
    return DSL.using(
        new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(provider));
  }

  /** Every function counter as {@code name{tag=value,...}}, sorted. */
  private static Map<String, Double> counters(MeterRegistry registry) {
    Map<String, Double> out = new TreeMap<>();
    for (Meter meter : registry.getMeters()) {
      if (meter instanceof FunctionCounter counter) {
        String tags =
            meter.getId().getTags().stream()
                .map(t -> t.getKey() + "=" + t.getValue())
                .collect(Collectors.joining(","));
        out.put(meter.getId().getName() + "{" + tags + "}", counter.count());
      }
    }
    return out;
  }
}
