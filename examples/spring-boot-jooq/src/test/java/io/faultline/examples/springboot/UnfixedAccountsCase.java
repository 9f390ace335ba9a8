package io.faultline.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.junit.FailOn;
import io.faultline.junit.FaultlineTest;
import io.faultline.junit.MaxSavepoints;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The service's tests of {@link Accounts} on the code as written ({@code
 * faultline.jooq.nesting=warn} from {@code application.properties}): each makes a savepoint after a
 * row lock, and each fails, naming the call site. {@code UnfixedAccountsTest} runs this class
 * through JUnit's test kit and checks that it fails so, which keeps the build green. Surefire does
 * not pick it up by itself: its name does not end in {@code Test}.
 */
@SpringBootTest(properties = "example.scenes=false")
@FaultlineTest
class UnfixedAccountsCase {

  @Autowired Accounts accounts;

  @BeforeEach
  void schema() {
    accounts.createSchema();
  }

  @Test
  void withdrawingInANestedDslTransaction() {
    accounts.open(1, 100);
    accounts.withdraw(1, 30);
    assertThat(accounts.balance(1)).isEqualTo(70);
  }

  @Test
  void withdrawingAndRecordingInANestedTransactionalMethod() {
    accounts.open(2, 100);
    accounts.withdrawAndRecord(2, 30);
    assertThat(accounts.balance(2)).isEqualTo(70);
  }

  /** No finding fails this one; the budget does. */
  @Test
  @FailOn({})
  @MaxSavepoints(0)
  void withdrawingWithinABudgetOfNoSavepoints() {
    accounts.open(3, 100);
    accounts.withdraw(3, 30);
    assertThat(accounts.balance(3)).isEqualTo(70);
  }
}
