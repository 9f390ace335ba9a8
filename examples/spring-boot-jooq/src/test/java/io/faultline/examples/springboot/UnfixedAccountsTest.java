package io.faultline.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs {@link UnfixedAccountsCase} through JUnit's test kit, as a developer's build would run it,
 * and checks that each of its tests fails for the reason it should: a savepoint after {@code SELECT
 * … FOR UPDATE} through jOOQ's nesting and through Spring's {@code propagation = NESTED}, and the
 * {@code @MaxSavepoints(0)} budget. Not a {@code @FaultlineTest} itself: the kit runs the case on
 * this thread.
 */
class UnfixedAccountsTest {

  @Test
  void theCodeAsWrittenFailsItsTests() {
    Events tests =
        EngineTestKit.engine("junit-jupiter")
            .selectors(selectClass(UnfixedAccountsCase.class))
            .execute()
            .testEvents();

    Map<String, String> failures =
        tests.failed().stream()
            .collect(
                Collectors.toMap(
                    e -> e.getTestDescriptor().getDisplayName(), UnfixedAccountsTest::message));
    failures.forEach((test, message) -> System.out.println(test + " failed:\n" + message));
    assertThat(tests.succeeded().count()).isZero();
    assertThat(failures).hasSize(3);

    assertThat(failures.get("withdrawingInANestedDslTransaction()"))
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("Accounts.withdraw(Accounts.java:")
        .contains("FOR UPDATE");
    assertThat(failures.get("withdrawingAndRecordingInANestedTransactionalMethod()"))
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("Accounts.withdrawAndRecord(Accounts.java:")
        .contains("FOR UPDATE");
    assertThat(failures.get("withdrawingWithinABudgetOfNoSavepoints()"))
        .contains("@MaxSavepoints(0)")
        .contains("Accounts.withdraw(Accounts.java:")
        .doesNotContain("JOOQ_SAVEPOINT_AFTER_ROW_LOCK");
  }

  private static String message(Event event) {
    return event
        .getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable)
        .map(Throwable::getMessage)
        .orElse("");
  }
}
