package io.faultline.examples.servicetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.faultline.jooq.NestingPolicy;
import io.faultline.junit.FailOn;
import io.faultline.junit.FaultlineTest;
import io.faultline.junit.MaxSavepoints;
import io.faultline.testcontainers.PostgresFaults;
import java.time.Duration;
import javax.sql.DataSource;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The payment service's database tests, with Faultline: {@code @FaultlineTest} fails a test whose
 * code begins a savepoint after a row lock, and {@link PostgresFaults} holds a lock the way another
 * backend would.
 */
@FaultlineTest
class PaymentsTest {

  static PostgreSQLContainer postgres;
  static volatile DataSource dataSource;

  @AutoClose
  PostgresFaults faults =
      PostgresFaults.on(postgres.getJdbcUrl(), postgres.getUsername(), postgres.getPassword());

  @BeforeAll
  static void startPostgres() {
    postgres = Servers.postgres();
    postgres.start();
    dataSource = Servers.dataSource(postgres);
    new Payments(dataSource, NestingPolicy.FLATTEN).createSchema();
  }

  @AfterAll
  static void stopPostgres() {
    postgres.stop();
  }

  @Test
  @MaxSavepoints(0)
  void payingAuditsTheAccountWithoutASavepoint() {
    // The fix: the audit runs in the payment's own transaction, so nothing follows the lock.
    Payments payments = new Payments(dataSource, NestingPolicy.FLATTEN);
    payments.open(2, 100);
    payments.pay(2, 30);
    assertThat(payments.balance(2)).isEqualTo(70);
  }

  @Test
  // The kit runs the unfixed test on this thread: its finding is its own test's to fail on.
  @FailOn({})
  void theCodeAsWrittenFailsItsTest() {
    Events tests =
        EngineTestKit.engine("junit-jupiter")
            .selectors(selectClass(UnfixedPaymentsCase.class))
            .execute()
            .testEvents();

    assertThat(tests.failed().count()).isEqualTo(1);
    Throwable failure =
        tests.failed().stream()
            .findFirst()
            .orElseThrow()
            .getPayload(org.junit.platform.engine.TestExecutionResult.class)
            .orElseThrow()
            .getThrowable()
            .orElseThrow();
    assertThat(failure.getMessage())
        .contains("JOOQ_SAVEPOINT_AFTER_ROW_LOCK")
        .contains("Payments.java")
        .contains("FOR UPDATE")
        .contains("jooq.nesting=FLATTEN");
  }

  @Test
  void aPaymentGivesUpOnAnAccountAnotherBackendHoldsLocked() {
    Payments payments = new Payments(dataSource, NestingPolicy.FLATTEN, Duration.ofMillis(200));
    payments.open(3, 100);
    faults.hotRow("account", "id = 3");

    assertThatThrownBy(() -> payments.pay(3, 10))
        .isInstanceOf(DataAccessException.class)
        .hasMessageContaining("lock timeout");
    faults.close();
    payments.pay(3, 10);
    assertThat(payments.balance(3)).isEqualTo(90);
  }
}
