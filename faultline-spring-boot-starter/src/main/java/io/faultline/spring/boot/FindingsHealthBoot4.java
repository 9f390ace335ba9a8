package io.faultline.spring.boot;

import io.faultline.core.finding.Findings;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** The {@code faultline} health contributor on Boot 4: UP, findings as details. */
final class FindingsHealthBoot4 implements HealthIndicator {

  private final Findings findings;

  FindingsHealthBoot4(Findings findings) {
    this.findings = findings;
  }

  @Override
  public Health health() {
    return Health.up().withDetails(FindingsView.summary(findings)).build();
  }
}
