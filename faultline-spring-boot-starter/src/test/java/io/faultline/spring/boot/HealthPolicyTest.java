package io.faultline.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.finding.Finding;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.JooqFindingTypes;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class HealthPolicyTest {

  private final Findings findings =
      new Findings(Duration.ZERO, Clock.systemUTC(), System.getLogger("test"));

  private static HealthPolicy policy(String downOn) {
    StandardEnvironment environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .addFirst(new MapPropertySource("test", Map.of("faultline.health.down-on", downOn)));
    return HealthPolicy.of(SpringEnvironmentConfig.load(environment));
  }

  private void raiseRowLockFinding() {
    findings.raise(
        Finding.of(JooqFindingTypes.SAVEPOINT_AFTER_ROW_LOCK, "com.acme.Orders.pay(Orders.java:42)")
            .message("a savepoint after a row lock")
            .build());
  }

  @Test
  void byDefaultNoFindingTurnsItDown() {
    raiseRowLockFinding();
    HealthPolicy policy = HealthPolicy.of(SpringEnvironmentConfig.load(new StandardEnvironment()));
    assertThat(policy.downOn()).isEmpty();
    assertThat(policy.downBecause(findings)).isEmpty();
  }

  @Test
  void aNamedActiveFindingTurnsItDownAndIsNamed() {
    HealthPolicy policy = policy(" jooq_savepoint_after_row_lock , JOOQ_SUBTRANSACTION_OVERFLOW,");
    assertThat(policy.downOn())
        .containsExactlyInAnyOrder("JOOQ_SAVEPOINT_AFTER_ROW_LOCK", "JOOQ_SUBTRANSACTION_OVERFLOW");
    assertThat(policy.downBecause(findings)).as("nothing active yet").isEmpty();
    raiseRowLockFinding();
    assertThat(policy.downBecause(findings))
        .containsExactly("JOOQ_SAVEPOINT_AFTER_ROW_LOCK com.acme.Orders.pay(Orders.java:42)");
  }

  @Test
  void anActiveFindingNotNamedKeepsItUp() {
    raiseRowLockFinding();
    assertThat(policy("JOOQ_SUBTRANSACTION_OVERFLOW").downBecause(findings)).isEmpty();
  }
}
