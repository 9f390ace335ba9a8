package io.faultline.it.bench;

import com.sun.management.OperatingSystemMXBean;
import com.zaxxer.hikari.HikariDataSource;
import io.faultline.core.finding.Findings;
import io.faultline.it.servers.PostgresServer;
import io.faultline.jooq.GuardedTransactionProvider;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;
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
 * nested transaction: a savepoint of the application's own), on 1 and 8 threads.
 *
 * <p>The two providers take turns in {@link #SLICE} slices within one measured window, the same
 * worker threads switching between them: on this machine a 4 s run of one configuration gave
 * anything from 660 to 1,030 TPS (commit fsyncs, checkpoints, the other containers), so two runs
 * one after the other compared the seconds more than the providers; slices a fifth of a second long
 * see the same server. They also share one pool, so the same backends: with a pool each, where the
 * scheduler put each pool's backends against the worker threads moved a round's ratio by a few
 * percent either way. The guard's session settings, set on its first use of a connection, then stay
 * in force for the bare provider's transactions on it too, which costs the server nothing per
 * statement (PostgreSQL arms its timer once, not per statement). Statements are counted in a
 * second, shorter window in which each provider has a pool of its own, connecting as its own
 * database role, so {@code pg_stat_statements} (reset after a warm-up) counts every statement each
 * one made the server run, per committed transaction.
 */
final class JooqTpsBenchmark {

  /** Provider × workload × threads. */
  record Key(String workload, int threads, String provider) {}

  /**
   * One measured run: committed transactions per second, the worker threads' CPU per committed
   * transaction (the client side: jOOQ, the provider, pgjdbc, HikariCP), this JVM's CPU per
   * transaction (the workers', its collector's and compilers' too), PostgreSQL's processes' CPU per
   * transaction, the share of the host's CPU left idle, and server statements per transaction.
   */
  record Run(
      double tps,
      double clientCpuMicrosPerTx,
      double processCpuMicrosPerTx,
      double serverCpuMicrosPerTx,
      double idleShare,
      double statementsPerTx,
      Map<String, Long> statements) {}

  static final String BARE = "bare";
  static final String GUARDED = "guarded";

  /** The pool both providers' transactions per second are measured on. */
  private static final String SHARED = "shared";

  /** Each provider's share of the warm-up before the first round, per workload. */
  static final Duration WARM_UP = Duration.ofSeconds(3);

  /** Each provider's share of the window its statements are counted in. */
  static final Duration COUNTED = Duration.ofSeconds(1);

  /**
   * What one provider got of a measured window: transactions committed, wall time in its slices,
   * its workers' CPU time in them, this JVM's, PostgreSQL's processes', and the host's idle time
   * (all CPUs') in them.
   */
  private record Share(
      long committed,
      long nanos,
      long cpuNanos,
      long processCpuNanos,
      long serverCpuNanos,
      long idleNanos) {}

  /** How long one provider has the workers before the other takes over. */
  static final Duration SLICE = Duration.ofMillis(200);

  private static final int ROWS = 10_000;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private static final OperatingSystemMXBean PROCESS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private static final int CPUS = Runtime.getRuntime().availableProcessors();

  private final PostgresServer postgres;
  private final BenchSettings settings;
  private final String suffix = Long.toHexString(System.nanoTime());
  private final String table = "bench_tps_" + suffix;
  private final Map<String, String> roles =
      Map.of(
          BARE, "bench_bare_" + suffix,
          GUARDED, "bench_guarded_" + suffix,
          SHARED, "bench_shared_" + suffix);
  private final String rolePassword = "bench-" + suffix;
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
      for (String role : roles.values()) {
        s.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + rolePassword + "'");
        s.execute("GRANT SELECT, UPDATE ON " + table + " TO " + role);
      }
      try {
        s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        s.execute("SELECT pg_stat_statements_reset()");
        statementsCounted = true;
      } catch (SQLException e) {
        System.out.println("bench: pg_stat_statements unavailable: " + e.getMessage());
      }
    }
    Map<Key, List<Run>> runs = new LinkedHashMap<>();
    try (HikariDataSource sharedPool = pool(SHARED);
        HikariDataSource barePool = pool(BARE);
        HikariDataSource guardedPool = pool(GUARDED)) {
      Map<String, DSLContext> dsls = new LinkedHashMap<>();
      dsls.put(BARE, dsl(sharedPool, false));
      dsls.put(GUARDED, dsl(sharedPool, true));
      Map<String, DSLContext> counting = new LinkedHashMap<>();
      counting.put(BARE, dsl(barePool, false));
      counting.put(GUARDED, dsl(guardedPool, true));
      // Compiled before the first round: otherwise its first configuration measures the JIT
      // compiling the guard's code (round 1 of 1 thread came out 6-9 % below the later rounds).
      for (boolean nested : new boolean[] {false, true}) {
        drive(dsls, List.of(BARE, GUARDED), nested, 8, WARM_UP);
      }
      for (int round = 0; round < settings.jooqRounds(); round++) {
        for (String workload : List.of("flat", "nested")) {
          for (int threads : new int[] {1, 8}) {
            // Who goes first alternates, so neither always has the first slice after a switch.
            List<String> order = round % 2 == 0 ? List.of(BARE, GUARDED) : List.of(GUARDED, BARE);
            Map<String, Run> pair =
                measure(dsls, counting, order, workload.equals("nested"), threads);
            for (String provider : List.of(BARE, GUARDED)) {
              Key key = new Key(workload, threads, provider);
              System.out.printf(
                  "bench: jooq round %d %s: %s%n", round + 1, key, pair.get(provider));
              runs.computeIfAbsent(key, k -> new ArrayList<>()).add(pair.get(provider));
            }
          }
        }
      }
    } finally {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS " + table);
        for (String role : roles.values()) {
          s.execute("DROP ROLE IF EXISTS " + role);
        }
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
            "bench: jooq %s %d thread(s): bare %.0f TPS %.1f µs CPU/tx (JVM %.1f, PostgreSQL"
                + " %.1f), guarded %.0f TPS %.1f µs CPU/tx (JVM %.1f, PostgreSQL %.1f) (medians);"
                + " guarded/bare per round%s; median %.3f%n",
            workload,
            threads,
            median(bare, Run::tps),
            median(bare, Run::clientCpuMicrosPerTx),
            median(bare, Run::processCpuMicrosPerTx),
            median(bare, Run::serverCpuMicrosPerTx),
            median(guarded, Run::tps),
            median(guarded, Run::clientCpuMicrosPerTx),
            median(guarded, Run::processCpuMicrosPerTx),
            median(guarded, Run::serverCpuMicrosPerTx),
            perRound,
            Stats.median(ratios));
      }
    }
  }

  private static double median(List<Run> runs, ToDoubleFunction<Run> value) {
    return Stats.median(runs.stream().mapToDouble(value).toArray());
  }

  private HikariDataSource pool(String provider) {
    return postgres.newPool(
        cfg -> {
          // Not through Docker's proxy of the published port, whose CPU the two would share.
          cfg.setJdbcUrl(postgres.directJdbcUrl());
          cfg.setMaximumPoolSize(8);
          cfg.setUsername(roles.get(provider));
          cfg.setPassword(rolePassword);
          cfg.setPoolName("bench-" + provider);
        });
  }

  private static DSLContext dsl(HikariDataSource pool, boolean guarded) {
    DataSourceConnectionProvider connections = new DataSourceConnectionProvider(pool);
    TransactionProvider provider = new DefaultTransactionProvider(connections);
    if (guarded) {
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

  /**
   * A warm-up second, then {@code jooqSeconds} per provider in alternating slices on the shared
   * pool ({@code dsls}: TPS and client CPU); then, on a pool per provider ({@code counting}), a
   * warm-up and {@link #COUNTED} per provider whose statements are counted.
   */
  private Map<String, Run> measure(
      Map<String, DSLContext> dsls,
      Map<String, DSLContext> counting,
      List<String> order,
      boolean nested,
      int threads)
      throws Exception {
    drive(dsls, order, nested, threads, Duration.ofSeconds(1));
    Map<String, Share> driven =
        drive(dsls, order, nested, threads, Duration.ofSeconds(settings.jooqSeconds()));
    // The warm-up lets the guard set its session settings on connections it has not used yet.
    drive(counting, order, nested, threads, SLICE);
    resetStatements();
    Map<String, Share> counted = drive(counting, order, nested, threads, COUNTED);
    Map<String, Run> runs = new LinkedHashMap<>();
    for (String provider : order) {
      Share share = driven.get(provider);
      double committed = share.committed();
      Map<String, Long> statements = statementsSinceReset(roles.get(provider));
      long total = statements.values().stream().mapToLong(Long::longValue).sum();
      runs.put(
          provider,
          new Run(
              committed / (share.nanos() / 1e9),
              share.cpuNanos() / 1e3 / committed,
              share.processCpuNanos() / 1e3 / committed,
              share.serverCpuNanos() / 1e3 / committed,
              share.idleNanos() / (share.nanos() * (double) CPUS),
              statementsCounted ? (double) total / counted.get(provider).committed() : Double.NaN,
              statements));
    }
    return runs;
  }

  /**
   * Runs the workload on {@code threads} workers for {@code perProvider} of each provider's slices;
   * returns per provider what it got of the window. A transaction is counted for the provider it
   * began with, even when it ends in the next slice, and the CPU by the slice it was spent in: at
   * most one transaction per worker per switch, the same for both.
   */
  private Map<String, Share> drive(
      Map<String, DSLContext> dsls,
      List<String> order,
      boolean nested,
      int threads,
      Duration perProvider)
      throws InterruptedException {
    AtomicInteger current = new AtomicInteger(-1);
    LongAdder[] committed = {new LongAdder(), new LongAdder()};
    DSLContext[] contexts = {dsls.get(order.get(0)), dsls.get(order.get(1))};
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> workers = new ArrayList<>();
    List<Throwable> errors = new ArrayList<>();
    CountDownLatch started = new CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      Thread w =
          new Thread(
              () -> {
                started.countDown();
                try {
                  while (!stop.get()) {
                    int slot = current.get();
                    if (slot < 0) {
                      Thread.onSpinWait();
                      continue;
                    }
                    transaction(contexts[slot], nested);
                    committed[slot].increment();
                  }
                } catch (Throwable e) {
                  synchronized (errors) {
                    errors.add(e);
                  }
                }
              },
              "bench-jooq-" + t);
      workers.add(w);
      w.start();
    }
    started.await();
    long[] nanos = new long[2];
    ProcessesCpu server = ProcessesCpu.named("postgres");
    int slices = (int) Math.max(1, perProvider.toNanos() / SLICE.toNanos());
    long[] before = readings(workers, server);
    long[][] spent = new long[2][before.length];
    for (int i = 0; i < 2 * slices; i++) {
      int slot = i % 2;
      long from = System.nanoTime();
      current.set(slot);
      TimeUnit.NANOSECONDS.sleep(SLICE.toNanos());
      nanos[slot] += System.nanoTime() - from;
      long[] now = readings(workers, server);
      for (int k = 0; k < now.length; k++) {
        spent[slot][k] += now[k] - before[k];
      }
      before = now;
    }
    stop.set(true);
    for (Thread w : workers) {
      w.join();
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException("a transaction failed", errors.get(0));
    }
    Map<String, Share> result = new LinkedHashMap<>();
    for (int slot = 0; slot < 2; slot++) {
      result.put(
          order.get(slot),
          new Share(
              committed[slot].sum(),
              nanos[slot],
              spent[slot][0],
              spent[slot][1],
              spent[slot][2],
              spent[slot][3]));
    }
    return result;
  }

  /**
   * What a slice is charged, in ns so far: the workers' CPU, this JVM's, PostgreSQL's processes',
   * the host's idle time (in {@link Share}'s order).
   */
  private static long[] readings(List<Thread> workers, ProcessesCpu server) {
    return new long[] {
      cpuNanos(workers), PROCESS.getProcessCpuTime(), server.nanos(), HostIdle.nanos()
    };
  }

  private static long cpuNanos(List<Thread> workers) {
    long sum = 0;
    for (Thread w : workers) {
      sum += Math.max(0, THREADS.getThreadCpuTime(w.getId()));
    }
    return sum;
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

  /** Calls per normalised statement of {@code role} since the reset. */
  private Map<String, Long> statementsSinceReset(String role) throws SQLException {
    Map<String, Long> calls = new LinkedHashMap<>();
    if (!statementsCounted) {
      return calls;
    }
    try (Connection c = postgres.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT query, sum(calls) FROM pg_stat_statements"
                    + " WHERE userid = (SELECT oid FROM pg_roles WHERE rolname = ?)"
                    + " GROUP BY query ORDER BY 2 DESC")) {
      s.setString(1, role);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          // pgjdbc names every savepoint anew (JDBC_SAVEPOINT_<n>): one kind of statement.
          String kind =
              rs.getString(1)
                  .replaceAll("\\s+", " ")
                  .replaceAll("JDBC_SAVEPOINT_\\d+", "JDBC_SAVEPOINT_<n>")
                  .replace(table, "bench_tps")
                  .strip();
          calls.merge(kind, rs.getLong(2), Long::sum);
        }
      }
    }
    return calls;
  }
}
