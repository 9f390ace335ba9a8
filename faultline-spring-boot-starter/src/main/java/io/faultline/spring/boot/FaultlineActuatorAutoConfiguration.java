package io.faultline.spring.boot;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With Actuator on the class path: the {@code faultline} endpoint and a {@code faultline} health
 * contributor that lists the active findings as details and stays UP (a finding is advice about the
 * service's database use, not a reason for a load balancer to take it out), unless {@code
 * faultline.health.down-on} names findings that make it DOWN while active.
 */
@AutoConfiguration(after = FaultlineAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
public class FaultlineActuatorAutoConfiguration {

  /** Created by Spring Boot. */
  public FaultlineActuatorAutoConfiguration() {}

  /** The endpoint. */
  @Bean
  @ConditionalOnMissingBean
  FaultlineEndpoint faultlineEndpoint(Findings findings) {
    return new FaultlineEndpoint(findings);
  }

  /** Boot 3: {@code org.springframework.boot.actuate.health}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
  static class Boot3Health {
    @Bean
    @ConditionalOnMissingBean(name = "faultlineHealthIndicator")
    FindingsHealthBoot3 faultlineHealthIndicator(Findings findings, FaultlineConfig config) {
      return new FindingsHealthBoot3(findings, HealthPolicy.of(config));
    }
  }

  /** Boot 4: {@code org.springframework.boot.health.contributor}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class Boot4Health {
    @Bean
    @ConditionalOnMissingBean(name = "faultlineHealthIndicator")
    FindingsHealthBoot4 faultlineHealthIndicator(Findings findings, FaultlineConfig config) {
      return new FindingsHealthBoot4(findings, HealthPolicy.of(config));
    }
  }
}
