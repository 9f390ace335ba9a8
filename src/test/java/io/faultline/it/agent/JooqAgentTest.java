package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.it.servers.MultiXactProbe;
import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The agent's jOOQ instrumentation in a child JVM whose application ({@link
 * io.faultline.it.agent.app.JooqNestingApp}) is plain jOOQ + HikariCP with no Faultline code,
 * against the real PostgreSQL: the Channel.io PostgreSQL outage's flow under each nesting policy,
 * on jOOQ 3.19 (the suite's JDK) and jOOQ 3.21 on JDK 25. The MultiXact is found with the built-in
 * pg_get_multixact_members ({@link MultiXactProbe}), so this runs on the embedded server too.
 */
@ExtendWith(RealServers.class)
class JooqAgentTest {

  private static final Pattern CREATED =
      Pattern.compile("faultline_jooq_savepoints_total\\{outcome=\"created\",?\\} ([0-9.]+)");

  @Test
  void warnCountsTheSavepointAndFlagsTheNestingAndTheRowLockAtTheAppsCallSite(
      PostgresServer postgres) throws Exception {
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = runApp(postgres, Jdk.current(), jooq319(), "warn", "agent_warn");
    assertThat(o.stdout).contains("outer committed", "jooq " + suiteJooqVersion());
    assertThat(o.savepointsCreated).isEqualTo(1.0);
    // The transaction that nested a level, also when it ran before the agent's registry existed.
    assertThat(count(NESTING_DEPTHS, o.metrics)).isEqualTo(1.0);
    assertThat(count(SAVEPOINTS_PER_TRANSACTION, o.metrics)).isEqualTo(1.0);
    assertThat(o.findings)
        .contains("JOOQ_NESTED_TRANSACTION", "JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("io.faultline.it.agent.app.JooqNestingApp.lambda$lockThenNestedUpdate");
    assertThat(o.page).contains("Transaction nesting hotspots", "JooqNestingApp");
    // The locking statement's literal e-mail address is masked everywhere the agent shows it.
    assertThat(o.findings)
        .contains("SELECT * FROM agent_warn WHERE email = ? FOR UPDATE")
        .doesNotContain("alice");
    assertThat(o.page).contains("WHERE email = ? FOR UPDATE").doesNotContain("alice");
    assertThat(o.log).contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK").doesNotContain("alice");
    assertThat(probe.updatingMultiXacts("agent_warn")).hasSize(1);
    assertThat(balance(postgres, "agent_warn")).isEqualTo(90);
  }

  @Test
  void flattenJoinsWithoutASavepointSoNoMultiXact(PostgresServer postgres) throws Exception {
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = runApp(postgres, Jdk.current(), jooq319(), "flatten", "agent_flatten");
    assertThat(o.stdout).contains("outer committed");
    assertThat(o.savepointsCreated).isZero();
    assertThat(probe.updatingMultiXacts("agent_flatten")).isEmpty();
    assertThat(balance(postgres, "agent_flatten")).isEqualTo(90);
  }

  @Test
  void failThrowsNestedTransactionExceptionAndTheOuterTransactionRollsBack(PostgresServer postgres)
      throws Exception {
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = runApp(postgres, Jdk.current(), jooq319(), "fail", "agent_fail");
    assertThat(o.stdout)
        .contains("inner failed: io.faultline.shaded.jooq.NestedTransactionException")
        .contains("outer failed: io.faultline.shaded.jooq.NestedTransactionException");
    assertThat(o.savepointsCreated).isZero();
    assertThat(probe.updatingMultiXacts("agent_fail")).isEmpty();
    assertThat(balance(postgres, "agent_fail")).isEqualTo(100);
  }

  @Test
  void jooq321OnJdk25IsGuardedTheSameWay(PostgresServer postgres) throws Exception {
    Jdk jdk25 =
        Jdk.available().stream().filter(j -> j.name().equals("jdk25")).findFirst().orElse(null);
    Assumptions.assumeTrue(jdk25 != null, "JDK 25 is not installed");
    warnsOnTheNestedSavepoint(postgres, jdk25, jooq321(), "3.21", "agent_321");
  }

  /**
   * The agent on the jOOQ {@code minor} on {@code classPath}, in a child on {@code jdk}, under
   * {@code warn}: the outage's flow makes one savepoint, is flagged as a nesting and as a savepoint
   * after a row lock at the app's call site, leaves one MultiXact, and the update lands once; the
   * jOOQ module stays on. Shared with the version matrix ({@link JooqMatrixTest}); returns what was
   * checked.
   */
  static String warnsOnTheNestedSavepoint(
      PostgresServer postgres, Jdk jdk, List<Path> classPath, String minor, String table)
      throws Exception {
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = runApp(postgres, jdk, classPath, "warn", table);
    assertThat(o.stdout).contains("outer committed", "jooq " + minor);
    assertThat(o.log).doesNotContain("instrumentation module jooq-transaction-provider");
    assertThat(o.savepointsCreated).isEqualTo(1.0);
    // The transaction that nested a level, also when it ran before the agent's registry existed.
    assertThat(count(NESTING_DEPTHS, o.metrics)).isEqualTo(1.0);
    assertThat(count(SAVEPOINTS_PER_TRANSACTION, o.metrics)).isEqualTo(1.0);
    assertThat(o.findings)
        .contains("JOOQ_NESTED_TRANSACTION", "JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("io.faultline.it.agent.app.JooqNestingApp.lambda$lockThenNestedUpdate");
    assertThat(probe.updatingMultiXacts(table)).hasSize(1);
    assertThat(balance(postgres, table)).isEqualTo(90);
    return "warn: 1 savepoint counted, JOOQ_NESTED_TRANSACTION and JOOQ_SAVEPOINT_AFTER_ROW_LOCK"
        + " at the app's call site, 1 MultiXact on the row, balance 90";
  }

  /**
   * The same under {@code flatten}: no savepoint, no MultiXact, the update lands once. Returns what
   * was checked.
   */
  static String flattensTheNestedTransaction(
      PostgresServer postgres, Jdk jdk, List<Path> classPath, String minor, String table)
      throws Exception {
    MultiXactProbe probe = MultiXactProbe.start(postgres);
    Outcome o = runApp(postgres, jdk, classPath, "flatten", table);
    assertThat(o.stdout).contains("outer committed", "jooq " + minor);
    assertThat(o.log).doesNotContain("instrumentation module jooq-transaction-provider");
    assertThat(o.savepointsCreated).isZero();
    assertThat(probe.updatingMultiXacts(table)).isEmpty();
    assertThat(balance(postgres, table)).isEqualTo(90);
    return "flatten: 0 savepoints, no MultiXact, balance 90";
  }

  /**
   * What a child application did: its output, the savepoints counted, the findings and page, and
   * its standard error (where the agent logs).
   */
  record Outcome(
      String stdout,
      double savepointsCreated,
      String findings,
      String page,
      String log,
      String metrics) {}

  private static final Pattern NESTING_DEPTHS =
      Pattern.compile("faultline_jooq_nesting_depth[a-z_]*_count(?:\\{[^}]*})? ([0-9.]+)");
  private static final Pattern SAVEPOINTS_PER_TRANSACTION =
      Pattern.compile(
          "faultline_jooq_savepoints_per_transaction[a-z_]*_count(?:\\{[^}]*})? ([0-9.]+)");

  private static double count(Pattern summaryCount, String metrics) {
    Matcher m = summaryCount.matcher(metrics);
    assertThat(m.find()).as(metrics).isTrue();
    return Double.parseDouble(m.group(1));
  }

  private static Outcome runApp(
      PostgresServer postgres, Jdk jdk, List<Path> jooq, String nesting, String table)
      throws Exception {
    return runApp(postgres, jdk, jooq, "io.faultline.it.agent.app.JooqNestingApp", nesting, table);
  }

  /**
   * Runs {@code mainClass} (arguments: JDBC URL, user, password, table, then {@code extraArgs}) on
   * {@code classPath} plus HikariCP, SLF4J and pgjdbc, with the agent under {@code jooq.nesting},
   * until its one top-level transaction has ended; saves its output under target/.
   */
  static Outcome runApp(
      PostgresServer postgres,
      Jdk jdk,
      List<Path> classPath,
      String mainClass,
      String nesting,
      String table,
      String... extraArgs)
      throws Exception {
    int port = Http.freePort();
    ChildJvm child =
        ChildJvm.on(jdk).agentArgs("prometheus.port=" + port + ",jooq.nesting=" + nesting);
    for (Path p : classPath) {
      child.classPath(p);
    }
    child
        .classPath(ChildJvm.jarOf(com.zaxxer.hikari.HikariDataSource.class))
        .classPath(ChildJvm.jarOf(org.slf4j.Logger.class))
        .classPath(ChildJvm.jarOf(org.postgresql.Driver.class));
    List<String> args =
        new ArrayList<>(
            List.of(postgres.jdbcUrl(), postgres.username(), postgres.password(), table));
    args.addAll(List.of(extraArgs));
    try (ChildJvm.Running running = child.start(mainClass, args.toArray(String[]::new))) {
      String base = "http://127.0.0.1:" + port;
      HttpResponse<String> metrics = awaitTransactionEnded(base);
      String findings = Http.awaitOk(base + "/faultline/findings", Duration.ofSeconds(10)).body();
      String page = Http.awaitOk(base + "/", Duration.ofSeconds(10)).body();
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(60);
      ChildJvm.save(
          "jooq-agent-" + table + ".txt",
          result.stdout()
              + "\n--- stderr\n"
              + result.stderr()
              + "\n--- metrics\n"
              + metrics.body()
              + "\n--- findings\n"
              + findings);
      result.assertCleanExit();
      Matcher m = CREATED.matcher(metrics.body());
      assertThat(m.find()).as(metrics.body()).isTrue();
      return new Outcome(
          result.stdout(),
          Double.parseDouble(m.group(1)),
          findings,
          page,
          result.stderr(),
          metrics.body());
    }
  }

  private static final Pattern ENDED =
      Pattern.compile("faultline_jooq_transactions_total\\{outcome=\"[a-z_]+\",?\\} 1\\.0");

  /** /metrics once the app's one top-level transaction has ended (any outcome). */
  private static HttpResponse<String> awaitTransactionEnded(String base) throws Exception {
    HttpResponse<String> metrics = null;
    for (int i = 0; i < 600; i++) {
      metrics = Http.awaitOk(base + "/metrics", Duration.ofSeconds(60));
      if (ENDED.matcher(metrics.body()).find()) {
        // A scrape reads its meters one after another: on a busy machine the whole transaction
        // can run while one scrape is under way, which then shows it ended but not yet nested
        // (seen in CI: transactions 1, savepoints 0). A scrape begun after this one sees it all.
        return Http.awaitOk(base + "/metrics", Duration.ofSeconds(60));
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the transaction never ended:\n" + metrics.body());
  }

  /**
   * The jOOQ on the suite's class path, read at run time (the compile-time constant is inlined).
   */
  private static String suiteJooqVersion() throws ReflectiveOperationException {
    return (String) org.jooq.Constants.class.getField("VERSION").get(null);
  }

  static List<Path> jooq319() {
    List<Path> cp = new ArrayList<>();
    cp.add(ChildJvm.jarOf(org.jooq.impl.DSL.class));
    cp.add(ChildJvm.jarOf(org.reactivestreams.Publisher.class));
    cp.add(ChildJvm.jarOf(io.r2dbc.spi.ConnectionFactory.class));
    return cp;
  }

  static List<Path> jooq321() {
    Path jar = Path.of(System.getProperty("faultline.it.jooq321.jar", "missing"));
    Assumptions.assumeTrue(Files.isRegularFile(jar), "jOOQ 3.21 jar not copied: " + jar);
    List<Path> cp = jooq319();
    cp.set(0, jar);
    return cp;
  }

  static int balance(PostgresServer postgres, String table) throws SQLException {
    return queryInt(postgres, "SELECT balance FROM " + table + " WHERE id = 1");
  }

  private static int queryInt(PostgresServer postgres, String sql) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      ResultSet rs = s.executeQuery(sql);
      rs.next();
      return rs.getInt(1);
    }
  }
}
