package io.faultline.it.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.faultline.it.servers.PostgresServer;
import io.faultline.it.servers.RealServers;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.JooqFindingTypes;
import io.faultline.jooq.NestingPolicy;
import io.faultline.junit.FaultlineTest;
import io.faultline.junit.MaxNesting;
import io.faultline.junit.MaxSavepoints;
import io.faultline.junit.MaxStatements;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.DefaultTransactionProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * faultline-junit as a team would use it, on the real PostgreSQL: test classes annotated with
 * {@code @FaultlineTest} whose code runs jOOQ through a {@code GuardedTransactionProvider} with no
 * findings registry wired (the extension needs none), run by the Jupiter engine through the test
 * kit. The Channel.io PostgreSQL outage's pattern fails its test with the call site and the advice;
 * {@code FLATTEN} makes it pass; budgets fail when exceeded and pass when not; in parallel each
 * test is charged only what it did.
 */
@ExtendWith(RealServers.class)
class FaultlineExtensionOnPostgresTest {

  /** The database and table the classes run by the kit use; set before each run. */
  static volatile DataSource dataSource;

  static volatile String table;

  // --- What a service would have: a guarded DSLContext and the outage's flow. ---

  static DSLContext dsl(NestingPolicy nesting) {
    DataSourceConnectionProvider connections = new DataSourceConnectionProvider(dataSource);
    GuardedTransactionProvider provider =
        GuardedTransactionProvider.wrap(new DefaultTransactionProvider(connections))
            .nesting(nesting)
            .build();
    return DSL.using(
        new DefaultConfiguration().set(SQLDialect.POSTGRES).set(connections).set(provider));
  }

  /** Locks row {@code id}, then updates it in a nested transaction (a savepoint under WARN). */
  static void lockThenNestedUpdate(DSLContext dsl, int id) {
    dsl.transaction(
        outer -> {
          outer.dsl().fetch("SELECT * FROM " + table + " WHERE id = " + id + " FOR UPDATE");
          outer
              .dsl()
              .transaction(
                  inner ->
                      inner
                          .dsl()
                          .execute(
                              "UPDATE " + table + " SET balance = balance - 10 WHERE id = " + id));
        });
  }

  /** An update in a nested transaction, no row locked first. */
  static void nestedUpdate(DSLContext dsl, int id) {
    dsl.transaction(
        outer ->
            outer
                .dsl()
                .transaction(
                    inner ->
                        inner
                            .dsl()
                            .execute(
                                "UPDATE "
                                    + table
                                    + " SET balance = balance - 1 WHERE id = "
                                    + id)));
  }

  /** One transaction of {@code statements} reads. */
  static void reads(DSLContext dsl, int statements) {
    dsl.transaction(
        tx -> {
          for (int i = 0; i < statements; i++) {
            tx.dsl().fetch("SELECT balance FROM " + table + " WHERE id = 2");
          }
        });
  }

  // --- Test classes run by the kit (static nested: Surefire and discovery leave them alone). ---

  @FaultlineTest
  static class SavepointAfterForUpdate {
    @Test
    void payThenRefundInANestedTransaction() {
      lockThenNestedUpdate(dsl(NestingPolicy.WARN), 1);
    }
  }

  @FaultlineTest
  @MaxSavepoints(0)
  static class Flattened {
    @Test
    void payThenRefundInANestedTransaction() {
      lockThenNestedUpdate(dsl(NestingPolicy.FLATTEN), 1);
    }
  }

  @FaultlineTest
  static class Budgets {
    @Test
    @MaxSavepoints(0)
    void nestedWithoutALock() {
      nestedUpdate(dsl(NestingPolicy.WARN), 2);
    }

    @Test
    @MaxSavepoints(1)
    void oneSavepointWithinBudget() {
      nestedUpdate(dsl(NestingPolicy.WARN), 2);
    }

    @Test
    @MaxNesting(1)
    void flattenedNestingStillNests() {
      nestedUpdate(dsl(NestingPolicy.FLATTEN), 2);
    }

    @Test
    @MaxNesting(2)
    void oneLevelWithinBudget() {
      nestedUpdate(dsl(NestingPolicy.WARN), 2);
    }

    @Test
    @MaxStatements(3)
    void fiveStatements() {
      reads(dsl(NestingPolicy.WARN), 5);
    }

    @Test
    @MaxStatements(5)
    void fiveStatementsWithinBudget() {
      reads(dsl(NestingPolicy.WARN), 5);
    }
  }

  /** Two tests at the same time: one runs the outage's pattern, the other clean transactions. */
  @FaultlineTest
  @Execution(ExecutionMode.CONCURRENT)
  static class Parallel {
    static volatile CountDownLatch bothRunning;
    static volatile CountDownLatch bothDone;

    @BeforeEach
    void meet() throws InterruptedException {
      bothRunning.countDown();
      assertThat(bothRunning.await(30, TimeUnit.SECONDS)).as("both tests running").isTrue();
    }

    @Test
    void savepointAfterRowLock() throws InterruptedException {
      lockThenNestedUpdate(dsl(NestingPolicy.WARN), 1);
      bothDone.countDown();
      assertThat(bothDone.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    @MaxSavepoints(0)
    @MaxStatements(2)
    void cleanTransactions() throws InterruptedException {
      reads(dsl(NestingPolicy.WARN), 2);
      bothDone.countDown();
      assertThat(bothDone.await(30, TimeUnit.SECONDS)).isTrue();
      reads(dsl(NestingPolicy.WARN), 1);
    }
  }

  // --- The tests. ---

  private static void setUp(PostgresServer postgres) throws SQLException {
    dataSource = postgres.dataSource();
    table = "junit_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, balance int NOT NULL)");
      s.execute("INSERT INTO " + table + " VALUES (1, 100), (2, 100)");
    }
  }

  private static int balance(PostgresServer postgres, int id) throws SQLException {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT balance FROM " + table + " WHERE id = " + id)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static EngineExecutionResults run(Class<?> type, boolean parallel) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(type))
        .configurationParameter(
            "junit.jupiter.execution.parallel.enabled", String.valueOf(parallel))
        .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
        .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "2")
        .execute();
  }

  private static Map<String, String> failures(EngineExecutionResults results) {
    return results.testEvents().failed().stream()
        .collect(
            Collectors.toMap(
                e -> e.getTestDescriptor().getDisplayName(),
                FaultlineExtensionOnPostgresTest::message));
  }

  private static String message(Event event) {
    return event
        .getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable)
        .map(Throwable::toString)
        .orElse("");
  }

  /** Report entries of {@code key}, by the display name of what published them. */
  private static Map<String, String> entries(EngineExecutionResults results, String key) {
    return results.allEvents().reportingEntryPublished().stream()
        .filter(
            e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().containsKey(key))
        .collect(
            Collectors.toMap(
                e -> e.getTestDescriptor().getDisplayName(),
                e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get(key)));
  }

  @Test
  void aSavepointAfterForUpdateFailsTheTestWithTheCallSitesAndTheAdvice(PostgresServer postgres)
      throws SQLException {
    setUp(postgres);

    EngineExecutionResults results = run(SavepointAfterForUpdate.class, false);

    results.testEvents().assertStatistics(s -> s.started(1).failed(1));
    String message = failures(results).get("payThenRefundInANestedTransaction()");
    assertThat(message)
        .startsWith("java.lang.AssertionError: Faultline: 1 finding this test fails on")
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK [CRITICAL] about " + getClass().getName())
        .contains("lambda$lockThenNestedUpdate")
        .contains("FOR UPDATE")
        .contains("What to do: " + JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.remediation());
    // The code itself ran: the test failed on the finding, not on an error.
    assertThat(balance(postgres, 1)).isEqualTo(90);
    assertThat(entries(results, "faultline.report").values())
        .singleElement()
        .asString()
        .contains("1 of 1 test(s)")
        .contains("payThenRefundInANestedTransaction(): JOOQ_NESTED_TRANSACTION")
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
  }

  @Test
  void flattenMakesItPass(PostgresServer postgres) throws SQLException {
    setUp(postgres);

    EngineExecutionResults results = run(Flattened.class, false);

    results.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
    assertThat(balance(postgres, 1)).isEqualTo(90);
    assertThat(entries(results, "faultline").get("payThenRefundInANestedTransaction()"))
        .isEqualTo("1 transaction(s), at most 0 savepoint(s), depth 2, 2 statement(s) in one");
  }

  @Test
  void budgetsFailWhenExceededAndPassWhenNot(PostgresServer postgres) throws SQLException {
    setUp(postgres);

    EngineExecutionResults results = run(Budgets.class, false);

    Map<String, String> failed = failures(results);
    assertThat(failed)
        .containsOnlyKeys(
            "nestedWithoutALock()", "flattenedNestingStillNests()", "fiveStatements()");
    assertThat(failed.get("nestedWithoutALock()"))
        .contains("@MaxSavepoints(0): a transaction begun at " + getClass().getName())
        .contains(".nestedUpdate(FaultlineExtensionOnPostgresTest.java:")
        .contains("created 1 savepoint(s)");
    assertThat(failed.get("flattenedNestingStillNests()"))
        .contains("@MaxNesting(1)")
        .contains("nested 2 levels deep");
    assertThat(failed.get("fiveStatements()"))
        .contains("@MaxStatements(3)")
        .contains(".reads(FaultlineExtensionOnPostgresTest.java:")
        .contains("ran 5 statements");
    results.testEvents().assertStatistics(s -> s.started(6).succeeded(3).failed(3));
  }

  @Test
  void inParallelEachTestIsChargedWhatItDid(PostgresServer postgres) throws SQLException {
    setUp(postgres);
    Parallel.bothRunning = new CountDownLatch(2);
    Parallel.bothDone = new CountDownLatch(2);

    EngineExecutionResults results = run(Parallel.class, true);

    Map<String, String> failed = failures(results);
    assertThat(failed).containsOnlyKeys("savepointAfterRowLock()");
    assertThat(failed.get("savepointAfterRowLock()"))
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .doesNotContain(".reads(");
    assertThat(entries(results, "faultline").get("cleanTransactions()"))
        .isEqualTo("2 transaction(s), at most 0 savepoint(s), depth 1, 2 statement(s) in one");
    assertThat(entries(results, "faultline.report").values())
        .singleElement()
        .asString()
        .contains("1 of 2 test(s)")
        .doesNotContain("charged to no test");
  }
}
