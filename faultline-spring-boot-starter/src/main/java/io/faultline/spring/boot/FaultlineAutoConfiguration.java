package io.faultline.spring.boot;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Faultline's configuration, read from the {@code faultline.*} properties, and the {@link Findings}
 * every guard of the application reports to (one per application, so the actuator endpoint shows
 * them all), whose active findings go into JDK Flight Recorder recordings. An application that
 * declares its own {@link Findings} bean keeps it.
 */
@AutoConfiguration
public class FaultlineAutoConfiguration {

  /** Created by Spring Boot. */
  public FaultlineAutoConfiguration() {}

  /** {@code faultline.*} from the environment, parsed and checked against the key catalog. */
  @Bean
  @ConditionalOnMissingBean
  FaultlineConfig faultlineConfig(Environment environment) {
    return SpringEnvironmentConfig.load(environment);
  }

  /** Where findings go; re-logged as {@code findings.log-interval} says. */
  @Bean
  @ConditionalOnMissingBean
  Findings faultlineFindings(FaultlineConfig config) {
    return new Findings(config);
  }

  /** The active findings in JDK Flight Recorder recordings ({@code io.faultline.ActiveFinding}). */
  @Bean
  FindingsInFlightRecordings faultlineFindingsInFlightRecordings(Findings findings) {
    return new FindingsInFlightRecordings(findings);
  }
}
