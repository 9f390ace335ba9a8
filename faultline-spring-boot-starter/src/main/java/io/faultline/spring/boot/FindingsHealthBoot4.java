package io.faultline.spring.boot;

import io.faultline.core.finding.Findings;
import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code faultline} health contributor on Boot 4: UP, findings as details; DOWN on the findings
 * {@code health.down-on} names.
 */
final class FindingsHealthBoot4 implements HealthIndicator {

  private final Findings findings;
  private final HealthPolicy policy;

  FindingsHealthBoot4(Findings findings, HealthPolicy policy) {
    this.findings = findings;
    this.policy = policy;
  }

  @Override
  public Health health() {
    List<String> down = policy.downBecause(findings);
    Health.Builder health = down.isEmpty() ? Health.up() : Health.down();
    health.withDetails(FindingsView.summary(findings));
    if (!policy.downOn().isEmpty()) {
      health.withDetail("downOn", List.copyOf(policy.downOn()));
    }
    if (!down.isEmpty()) {
      health.withDetail("downBecause", down);
    }
    return health.build();
  }
}
