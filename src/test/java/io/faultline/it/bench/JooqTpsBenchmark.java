package io.faultline.it.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Findings;
import io.faultline.it.servers.PostgresServer;
import io.faultline.jooq.GuardedTransactionProvider;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.TransactionProvider;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultTransactionProvider;

/**
 * Transactions per second against the real PostgreSQL, the bare {@link DefaultTransactionProvider}
 * against {@link GuardedTransactionProvider} (with a statement and a lock timeout, so it has
 * something to set), a flat workload (read a row, update it) and a nested one (the update in a
 * nested transaction: a savepoint of the application's own), on 1 and 8 threads, interleaved (the
 * pair's order alternating from round to round). Each run warms up for a second, then resets {@code
 * pg_stat_statements} and counts every statement the server executed per committed transaction.
 */
final class JooqTpsBenchmark {

  /** Provider × workload × threads. */
  record Key(String workload, int threads, String provider) {}

  /** One measured run: committed transactions per second and server statements per transaction. */
  record Run(double tps, double statementsPerTx, Map<String, Long> statements) {}

  static final String BARE = "bare";
  static final String GUARDED = "guarded";

  private static final int ROWS = 10_000;

  private final PostgresServer postgres;
  private final BenchSettings settings;
  private final String table = "bench_tps_" + Long.toHexString(System.nanoTime());
  private boolean statementsCounted;

  JooqTpsBenchmark(PostgresServer postgres, BenchSettings settings) {
    this.postgres = postgres;
    this.settings = settings;
  }

  /** Whether pg_stat_statements was there to count statements. */
  boolean statementsCounted() {
    return statementsCounted;
  }

  /** Every key's runs, in round order. */
  Map<Key, List<Run>> run() throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, counter bigint NOT NULL)");
      s.execute("INSERT INTO " + table + " SELECT g, 0 FROM generate_series(1, " + ROWS + ") g");
      try {
        s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        s.execute("SELECT pg_stat_statements_reset()");
        statementsCounted = true;
      } catch (SQLException e) {
        System.out.println("bench: pg_stat_statements unavailable: " + e.getMessage());
      }
    }
    Map<Key, List<Run>> runs = new LinkedHashMap<>();
    try (HikariDataSource pool = postgres.newPool(cfg -> cfg.setMaximumPoolSize(8))) {
      for (int round = 0; round < settings.jooqRounds(); round++) {
        for (String workload : List.of("flat", "nested")) {
          for (int threads : new int[] {1, 8}) {
            // Alternate which provider goes first: the table's dead tuples and the machine's
            // other load drift within a round, and a fixed order would hand that drift to one.
            List<String> order = round % 2 == 0 ? List.of(BARE, GUARDED) : List.of(GUARDED, BARE);
            for (String provider : order) {
              Key key = new Key(workload, threads, provider);
              Run run = measure(pool, key);
              System.out.printf("bench: jooq round %d %s: %s%n", round + 1, key, run);
              runs.computeIfAbsent(key, k -> new ArrayList<>()).add(run);
            }
          }
        }
      }
    } finally {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS " + table);
      }
    }
    return runs;
  }

  /**
   * Prints, per workload and thread count, the median TPS of each provider and the guarded ÷ bare
   * ratio of every round with their median (what the report's table shows).
   */
  static void printSummary(Map<Key, List<Run>> runs) {
    for (String workload : List.of("flat", "nested")) {
      for (int threads : new int[] {1, 8}) {
        List<Run> bare = runs.get(new Key(workload, threads, BARE));
        List<Run> guarded = runs.get(new Key(workload, threads, GUARDED));
        double[] ratios = new double[bare.size()];
        StringBuilder perRound = new StringBuilder();
        for (int r = 0; r < ratios.length; r++) {
          ratios[r] = guarded.get(r).tps() / bare.get(r).tps();
          perRound.append(String.format(Locale.ROOT, " %.3f", ratios[r]));
        }
        System.out.printf(
            Locale.ROOT,
            "bench: jooq %s %d thread(s): bare %.0f TPS, guarded %.0f TPS (medians);"
                + " guarded/bare per round%s; median %.3f%n",
            workload,
            threads,
            Stats.median(bare.stream().mapToDouble(Run::tps).toArray()),
            Stats.median(guarded.stream().mapToDouble(Run::tps).toArray()),
            perRound,
            Stats.median(ratios));
      }
    }
  }

  private Run measure(HikariDataSource pool, Key key) throws Exception {
    DataSourceConnectionProvider connections = new DataSourceConnectionProvider(pool);
    TransactionProvider provider = new DefaultTransactionProvider(connections);
    if (key.provider().equals(GUARDED)) {
      provider =
          GuardedTransactionProvider.wrap(provider)
              .statementTimeout(Duration.ofSeconds(30))
              .lockTimeout(Duration.ofSeconds(10))
              .meterRegistry(new SimpleMeterRegistry())
              .findings(new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("bench")))
              .build();
    }
    DSLContext dsl =
        DSL.using(
            new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(provider));
    boolean nested = key.workload().equals("nested");
    drive(dsl, nested, key.threads(), Duration.ofSeconds(1));
    resetStatements();
    long start = System.nanoTime();
    long committed = drive(dsl, nested, key.threads(), Duration.ofSeconds(settings.jooqSeconds()));
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Long> statements = statementsSinceReset();
    long total = statements.values().stream().mapToLong(Long::longValue).sum();
    return new Run(
        committed / seconds,
        statementsCounted ? (double) total / committed : Double.NaN,
        statements);
  }

  private long drive(DSLContext dsl, boolean nested, int threads, Duration duration)
      throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    LongAdder committed = new LongAdder();
    List<Thread> workers = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread w =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    transaction(dsl, nested);
                    committed.increment();
                  }
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              });
      workers.add(w);
      w.start();
    }
    Thread.sleep(duration.toMillis());
    stop.set(true);
    for (Thread w : workers) {
      w.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("a transaction failed", errors.get(0));
    }
    return committed.sum();
  }

  private void transaction(DSLContext dsl, boolean nested) {
    int id = ThreadLocalRandom.current().nextInt(1, ROWS + 1);
    dsl.transaction(
        tx -> {
          DSLContext ctx = tx.dsl();
          ctx.fetchValue("SELECT counter FROM " + table + " WHERE id = ?", id);
          if (nested) {
            ctx.transaction(
                inner ->
                    inner
                        .dsl()
                        .execute(
                            "UPDATE " + table + " SET counter = counter + 1 WHERE id = ?", id));
          } else {
            ctx.execute("UPDATE " + table + " SET counter = counter + 1 WHERE id = ?", id);
          }
        });
  }

  private void resetStatements() throws SQLException {
    if (!statementsCounted) {
      return;
    }
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("SELECT pg_stat_statements_reset()");
    }
  }

  /** Calls per normalised statement since the reset, the benchmark's own queries left out. */
  private Map<String, Long> statementsSinceReset() throws SQLException {
    Map<String, Long> calls = new LinkedHashMap<>();
    if (!statementsCounted) {
      return calls;
    }
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT query, sum(calls) FROM pg_stat_statements"
                    + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
                    + " AND query NOT LIKE '%pg_stat_statements%'"
                    + " GROUP BY query ORDER BY 2 DESC")) {
      while (rs.next()) {
        // pgjdbc names every savepoint anew (JDBC_SAVEPOINT_<n>): one kind of statement.
        String kind =
            rs.getString(1)
                .replaceAll("\\s+", " ")
                .replaceAll("JDBC_SAVEPOINT_\\d+", "JDBC_SAVEPOINT_<n>")
                .strip();
        calls.merge(kind, rs.getLong(2), Long::sum);
      }
    }
    return calls;
  }
}
