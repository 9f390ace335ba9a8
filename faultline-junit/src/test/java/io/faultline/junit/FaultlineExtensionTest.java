package io.faultline.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.faultline.core.finding.FindingCatalogs;
import io.faultline.core.finding.FindingType;
import io.faultline.jooq.JooqFindingTypes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
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
 * The extension's decisions, run through the Jupiter engine with the test kit: which tests fail, on
 * what message, and what the report says. Findings go through a real registry; the guard itself on
 * a real PostgreSQL is covered by the integration suite.
 */
class FaultlineExtensionTest {

  // --- Test classes run by the kit (static nested: Surefire and discovery leave them alone). ---

  @FaultlineTest
  static class Defaults {
    @Test
    void savepointAfterRowLock() {
      Raise.savepointAfterRowLock("com.acme.Orders.pay(Orders.java:42)");
    }

    @Test
    void nestedOnly() {
      Raise.nested("com.acme.Orders.refund(Orders.java:77)");
    }

    @Test
    void clean() {}
  }

  /** The same call site in two tests: the registry has it active after the first. */
  @FaultlineTest
  @org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.MethodName.class)
  static class SameSiteTwice {
    @Test
    void first() {
      Raise.savepointAfterRowLock("com.acme.Same.site(Same.java:1)");
    }

    @Test
    void second() {
      Raise.savepointAfterRowLock("com.acme.Same.site(Same.java:1)");
    }
  }

  @ExtendWith(FaultlineExtension.class)
  @FailOn("JOOQ_NESTED_TRANSACTION")
  static class ChosenIds {
    @Test
    void nestedFails() {
      Raise.nested("com.acme.Chosen.nested(Chosen.java:5)");
    }

    @Test
    void savepointAfterRowLockNoLongerChosen() {
      Raise.savepointAfterRowLock("com.acme.Chosen.lock(Chosen.java:9)");
    }

    @Test
    @FailOn({})
    void reportOnly() {
      Raise.nested("com.acme.Chosen.reportOnly(Chosen.java:12)");
    }
  }

  @FaultlineTest
  @MaxSavepoints(1)
  static class Budgets {
    @Test
    void withinSavepoints() {
      Raise.transaction("com.acme.B.ok(B.java:1)", 1, 2, 3);
    }

    @Test
    void overSavepoints() {
      Raise.transaction("com.acme.B.ok(B.java:1)", 0, 1, 1);
      Raise.transaction("com.acme.B.many(B.java:2)", 2, 2, 3);
    }

    @Test
    @MaxNesting(1)
    @MaxStatements(3)
    void overNestingAndStatements() {
      Raise.transaction("com.acme.B.deep(B.java:3)", 0, 2, 4);
    }

    @Test
    @MaxNesting(2)
    @MaxStatements(4)
    void withinNestingAndStatements() {
      Raise.transaction("com.acme.B.deep(B.java:3)", 0, 2, 4);
    }
  }

  @FaultlineTest
  @FailOn("JOOQ_NESTED_TRANSACTION")
  static class Outer {
    @Test
    void outerClean() {}

    @Nested
    class Inner {
      @Test
      void innerRaises() {
        Raise.nested("com.acme.Inner.x(Inner.java:3)");
      }

      @Nested
      @FailOn({})
      class Relaxed {
        @Test
        void relaxedRaises() {
          Raise.nested("com.acme.Relaxed.x(Relaxed.java:4)");
        }
      }
    }
  }

  /** A class whose @BeforeAll reports: charged to the class, which fails. */
  @FaultlineTest
  static class BeforeAllRaises {
    @org.junit.jupiter.api.BeforeAll
    static void setUp() {
      Raise.savepointAfterRowLock("com.acme.Fixture.load(Fixture.java:8)");
    }

    @Test
    void test() {}
  }

  /** Two tests that run at the same time, one raising on its own thread, one on another thread. */
  @FaultlineTest
  @Execution(ExecutionMode.CONCURRENT)
  static class Parallel {
    static volatile CountDownLatch bothRunning;
    static volatile CountDownLatch raised;

    @BeforeEach
    void meet() throws InterruptedException {
      bothRunning.countDown();
      assertThat(bothRunning.await(20, TimeUnit.SECONDS)).as("both tests running").isTrue();
    }

    @Test
    void raisesOnItsThread() throws InterruptedException {
      Raise.savepointAfterRowLock("com.acme.P.mine(P.java:1)");
      Raise.transaction("com.acme.P.mine(P.java:1)", 3, 2, 5);
      raised.countDown();
      assertThat(raised.await(20, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    @MaxSavepoints(0)
    void raisesOnAnotherThreadWhileTheOtherRuns() throws InterruptedException {
      Thread other =
          new Thread(() -> Raise.savepointAfterRowLock("com.acme.P.pool(P.java:2)"), "pool-1");
      other.start();
      other.join();
      raised.countDown();
      assertThat(raised.await(20, TimeUnit.SECONDS)).isTrue();
    }
  }

  // --- The tests. ---

  private static EngineExecutionResults run(Class<?> type) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(type)).execute();
  }

  private static EngineExecutionResults runParallel(Class<?> type) {
    return EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(type))
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
        .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
        .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "2")
        .execute();
  }

  private static Map<String, String> failures(EngineExecutionResults results) {
    return results.testEvents().failed().stream()
        .collect(
            Collectors.toMap(
                e -> e.getTestDescriptor().getDisplayName(), FaultlineExtensionTest::message));
  }

  private static String message(Event event) {
    return event
        .getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable)
        .map(Throwable::getMessage)
        .orElse("");
  }

  private static List<String> entries(EngineExecutionResults results, String key) {
    return results.allEvents().reportingEntryPublished().stream()
        .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get(key))
        .filter(v -> v != null)
        .toList();
  }

  @Test
  void failsOnADefaultFindingWithTheCallSiteAndAdvice() {
    EngineExecutionResults results = run(Defaults.class);

    results.testEvents().assertStatistics(s -> s.started(3).succeeded(2).failed(1));
    assertThat(failures(results)).containsOnlyKeys("savepointAfterRowLock()");
    assertThat(failures(results).get("savepointAfterRowLock()"))
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("about com.acme.Orders.pay(Orders.java:42)")
        .contains(
            "a savepoint is begun at com.acme.Orders.pay(Orders.java:42) after the transaction")
        .contains("What to do: " + JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.remediation())
        .contains(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK.docsReference());
  }

  @Test
  void everyTestSeesItsOwnReportEvenWhenTheRegistryHasTheFindingActive() {
    EngineExecutionResults results = run(SameSiteTwice.class);

    results.testEvents().assertStatistics(s -> s.failed(2));
  }

  @Test
  void failOnReplacesTheDefaultsAndTheNearestOneCounts() {
    EngineExecutionResults results = run(ChosenIds.class);

    assertThat(failures(results)).containsOnlyKeys("nestedFails()");
    assertThat(failures(results).get("nestedFails()"))
        .contains("JOOQ_NESTED_TRANSACTION")
        .contains("com.acme.Chosen.nested(Chosen.java:5)");
  }

  @Test
  void budgetsFailWhenAnyTransactionExceedsThemAndPassWhenNone() {
    EngineExecutionResults results = run(Budgets.class);

    assertThat(failures(results))
        .containsOnlyKeys("overSavepoints()", "overNestingAndStatements()");
    assertThat(failures(results).get("overSavepoints()"))
        .contains("@MaxSavepoints(1): a transaction begun at com.acme.B.many(B.java:2) created 2")
        .doesNotContain("B.ok");
    assertThat(failures(results).get("overNestingAndStatements()"))
        .contains("@MaxNesting(1): a transaction begun at com.acme.B.deep(B.java:3) nested 2")
        .contains("@MaxStatements(3): a transaction begun at com.acme.B.deep(B.java:3) ran 4");
  }

  @Test
  void nestedClassesInheritTheOuterSettingsAndMayOverrideThem() {
    EngineExecutionResults results = run(Outer.class);

    results.testEvents().assertStatistics(s -> s.started(3).failed(1));
    assertThat(failures(results)).containsOnlyKeys("innerRaises()");
    assertThat(entries(results, "faultline.report"))
        .singleElement()
        .asString()
        .contains("2 of 3 test(s)")
        .contains("Outer > Inner > innerRaises(): JOOQ_NESTED_TRANSACTION about com.acme.Inner.x")
        .contains("Outer > Inner > Relaxed > relaxedRaises(): JOOQ_NESTED_TRANSACTION");
  }

  @Test
  void findingsOfBeforeAllFailTheClass() {
    EngineExecutionResults results = run(BeforeAllRaises.class);

    results.testEvents().assertStatistics(s -> s.succeeded(1));
    assertThat(results.containerEvents().failed().stream().map(FaultlineExtensionTest::message))
        .singleElement()
        .asString()
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("com.acme.Fixture.load(Fixture.java:8)");
  }

  @Test
  void inParallelEachTestGetsWhatItsOwnThreadReported() {
    Parallel.bothRunning = new CountDownLatch(2);
    Parallel.raised = new CountDownLatch(2);

    EngineExecutionResults results = runParallel(Parallel.class);

    assertThat(failures(results)).containsOnlyKeys("raisesOnItsThread()");
    assertThat(failures(results).get("raisesOnItsThread()"))
        .contains("com.acme.P.mine(P.java:1)")
        .doesNotContain("com.acme.P.pool");
    // The other test's budget is untouched by the first one's transaction, and what another thread
    // reported while both ran is nobody's: it is listed, not charged.
    assertThat(entries(results, "faultline.report"))
        .singleElement()
        .asString()
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK about com.acme.P.pool(P.java:2) (thread pool-1)");
  }

  @Test
  void aThreadOfNoTestIsChargedToTheOnlyTestRunning() {
    EngineExecutionResults results = run(OnlyOneRunning.class);

    assertThat(failures(results).get("raisesOnAPoolThread()"))
        .contains("com.acme.Pool.run(Pool.java:5)")
        .contains("reported on thread worker-7, charged to this test as the only one running");
  }

  @FaultlineTest
  static class OnlyOneRunning {
    @Test
    void raisesOnAPoolThread() throws InterruptedException {
      Thread worker =
          new Thread(
              () -> Raise.savepointAfterRowLock("com.acme.Pool.run(Pool.java:5)"), "worker-7");
      worker.start();
      worker.join();
    }
  }

  @Test
  void eachTestPublishesWhatItObserved() {
    EngineExecutionResults results = run(Budgets.class);

    assertThat(entries(results, "faultline"))
        .contains("1 transaction(s), at most 1 savepoint(s), depth 2, 3 statement(s) in one");
  }

  @Test
  void theDefaultIdsAreFindingsFaultlineDeclares() throws NoSuchMethodException {
    List<String> declared = FindingCatalogs.fromClassPath().stream().map(FindingType::id).toList();
    Object annotationDefault = FaultlineTest.class.getMethod("failOn").getDefaultValue();

    assertThat(declared).containsAll(TestPolicy.DEFAULT_FAIL_ON);
    assertThat((String[]) annotationDefault).containsExactlyElementsOf(TestPolicy.DEFAULT_FAIL_ON);
  }
}
