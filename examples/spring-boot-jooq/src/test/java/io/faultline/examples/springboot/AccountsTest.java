package io.faultline.examples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.junit.FaultlineTest;
import io.faultline.junit.MaxSavepoints;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The service's tests of {@link Accounts}, fixed: with {@code faultline.jooq.nesting=flatten} the
 * nested {@code dsl.transaction} joins the outer one, and the ledger entry is written in the
 * withdrawal's own {@code @Transactional} transaction. {@code @FaultlineTest} would fail either on
 * a savepoint after the row lock, and {@code @MaxSavepoints(0)} on any savepoint at all; both pass.
 * The database is {@code spring.datasource.*} (see the example's README).
 */
@SpringBootTest(properties = {"example.scenes=false", "faultline.jooq.nesting=flatten"})
@FaultlineTest
@MaxSavepoints(0)
class AccountsTest {

  @Autowired Accounts accounts;

  @BeforeEach
  void schema() {
    accounts.createSchema();
  }

  @Test
  void withdrawingFlattensTheNestedTransaction() {
    accounts.open(11, 100);
    accounts.withdraw(11, 30);
    assertThat(accounts.balance(11)).isEqualTo(70);
  }

  @Test
  void withdrawingRecordsTheLedgerEntryInTheSameTransaction() {
    accounts.open(12, 100);
    accounts.withdrawAndRecordInOneTransaction(12, 30);
    assertThat(accounts.balance(12)).isEqualTo(70);
  }
}
