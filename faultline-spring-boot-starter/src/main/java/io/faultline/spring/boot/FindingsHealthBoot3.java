package io.faultline.spring.boot;

import io.faultline.core.finding.Findings;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/** The {@code faultline} health contributor on Boot 3: UP, findings as details. */
final class FindingsHealthBoot3 implements HealthIndicator {

  private final Findings findings;

  FindingsHealthBoot3(Findings findings) {
    this.findings = findings;
  }

  @Override
  public Health health() {
    return Health.up().withDetails(FindingsView.summary(findings)).build();
  }
}
