package io.faultline.spring.boot;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Guards every jOOQ {@code TransactionProvider} bean: Boot's own {@code SpringTransactionProvider}
 * (Boot 3's {@code org.springframework.boot.autoconfigure.jooq} and Boot 4's {@code
 * org.springframework.boot.jooq.autoconfigure} alike, since it is matched by jOOQ's interface) or
 * one the application declares; and polls PostgreSQL's statistics for every PostgreSQL {@code
 * DataSource} bean, with HikariCP's pool feedback. Nothing happens without jOOQ on the class path;
 * {@code faultline.jooq.guard=false} and {@code faultline.jooq.health=false} turn each part off.
 */
@AutoConfiguration(after = FaultlineAutoConfiguration.class)
@ConditionalOnClass(name = "org.jooq.TransactionProvider")
public class FaultlineJooqAutoConfiguration {

  /** Created by Spring Boot. */
  public FaultlineJooqAutoConfiguration() {}

  /**
   * Static, as post-processors must be: it is created before the other beans, and resolves the
   * configuration, findings and meter registry only when a provider is there to guard.
   */
  @Bean
  static TransactionProviderGuarding faultlineTransactionProviderGuarding(
      ObjectProvider<FaultlineConfig> config,
      ObjectProvider<Findings> findings,
      ObjectProvider<MeterRegistry> meterRegistry) {
    return new TransactionProviderGuarding(config, findings, meterRegistry);
  }

  /**
   * PostgreSQL's own statistics, and for a HikariCP pool the pool feedback, for every PostgreSQL
   * {@code DataSource} bean ({@code faultline.jooq.health=false} and {@code
   * faultline.jooq.pool-feedback=false} turn each off).
   */
  @Bean
  @ConditionalOnClass(name = "org.postgresql.Driver")
  DataSourceMonitors faultlineDataSourceMonitors(
      ListableBeanFactory beans,
      FaultlineConfig config,
      Findings findings,
      ObjectProvider<MeterRegistry> meterRegistry) {
    return new DataSourceMonitors(beans, config, findings, meterRegistry);
  }
}
