package io.faultline.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The agent flags transactional methods entered inside one another in a child JVM whose application
 * ({@link faultlineit.txapp.TransactionalApp}) has no Faultline code: one finding per (outer,
 * inner) pair, with both call sites and the inner propagation's effect.
 */
class TransactionalNestingTest {

  @Test
  void nestedTransactionalMethodsAreFlaggedOncePerPairWithTheirPropagation() throws Exception {
    int port = Http.freePort();
    try (ChildJvm.Running running =
        ChildJvm.on(Jdk.current())
            .agentArgs("prometheus.port=" + port)
            .start("faultlineit.txapp.TransactionalApp")) {
      String findings =
          Http.awaitBodyContaining(
                  "http://127.0.0.1:" + port + "/faultline/findings",
                  // The propagation field, not the word: the first finding's remediation mentions
                  // it.
                  "\"propagation\":\"REQUIRES_NEW\"",
                  Duration.ofSeconds(30))
              .body();
      running.send("stop");
      ChildJvm.Result result = running.awaitExit(30);
      ChildJvm.save("transactional-nesting.json", findings);
      result.assertCleanExit();
      assertThat(result.stdout()).contains("total 13");
      Matcher m = Pattern.compile("\"id\":\"TX_NESTED_TRANSACTIONAL\"").matcher(findings);
      int count = 0;
      while (m.find()) {
        count++;
      }
      assertThat(count).as(findings).isEqualTo(2);
      assertThat(findings)
          .contains(
              "TransactionalApp$OrderService.placeOrder -> "
                  + "faultlineit.txapp.TransactionalApp$PaymentService.charge")
          .contains("\"propagation\":\"NESTED\"")
          .contains("savepoint (a PostgreSQL subtransaction)")
          .contains("\"propagation\":\"REQUIRES_NEW\"")
          .contains("\"outerCallSite\":\"faultlineit.txapp.TransactionalApp.main(")
          .contains(
              "\"innerCallSite\":\"faultlineit.txapp.TransactionalApp$OrderService.placeOrder(");
    }
  }
}
