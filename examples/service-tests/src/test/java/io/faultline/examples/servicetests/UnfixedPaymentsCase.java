package io.faultline.examples.servicetests;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.jooq.NestingPolicy;
import io.faultline.junit.FaultlineTest;
import org.junit.jupiter.api.Test;

/**
 * The service's test of {@link Payments#pay} on the code as written (jOOQ's nesting, a savepoint
 * after the row lock). It fails, naming the call site and the fix; {@code PaymentsTest} runs it
 * through JUnit's test kit and checks that it does, so the build stays green. Surefire does not
 * pick it up by itself: its name does not end in {@code Test}.
 */
@FaultlineTest
class UnfixedPaymentsCase {

  @Test
  void payingAuditsTheAccount() {
    Payments payments = new Payments(PaymentsTest.dataSource, NestingPolicy.WARN);
    payments.open(1, 100);
    payments.pay(1, 30);
    assertThat(payments.balance(1)).isEqualTo(70);
  }
}
