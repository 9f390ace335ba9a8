package io.faultline.spring.boot;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.micrometer.core.instrument.MeterRegistry;
import org.jooq.ExecuteListenerProvider;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * Watches every transaction Spring's transaction managers begin ({@code @Transactional}, its {@code
 * NESTED} savepoints) and guards every jOOQ {@code TransactionProvider} bean: Boot's own {@code
 * SpringTransactionProvider} (Boot 3's {@code org.springframework.boot.autoconfigure.jooq} and Boot
 * 4's {@code org.springframework.boot.jooq.autoconfigure} alike, since it is matched by jOOQ's
 * interface) or one the application declares; and polls PostgreSQL's statistics for every
 * PostgreSQL {@code DataSource} bean, with HikariCP's pool feedback. Nothing happens without jOOQ
 * on the class path; {@code faultline.jooq.guard=false} and {@code faultline.jooq.health=false}
 * turn each part off.
 */
@AutoConfiguration(after = FaultlineAutoConfiguration.class)
@ConditionalOnClass(name = "org.jooq.TransactionProvider")
public class FaultlineJooqAutoConfiguration {

  /** Created by Spring Boot. */
  public FaultlineJooqAutoConfiguration() {}

  /**
   * The guard Spring's transaction managers, Boot's {@code DSLContext} statements and a single
   * provider share. Static and infrastructure: the post-processors below need it before the other
   * beans exist; it resolves the configuration, findings and registry on first use.
   */
  @Bean
  @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
  static ApplicationGuard faultlineApplicationGuard(
      ObjectProvider<FaultlineConfig> config,
      ObjectProvider<Findings> findings,
      ObjectProvider<MeterRegistry> meterRegistry,
      ListableBeanFactory beans) {
    return new ApplicationGuard(config, findings, meterRegistry, beans);
  }

  /**
   * Static, as post-processors must be: it is created before the other beans, and resolves the
   * configuration, findings and meter registry only when a provider is there to guard.
   */
  @Bean
  static TransactionProviderGuarding faultlineTransactionProviderGuarding(
      ObjectProvider<FaultlineConfig> config,
      ObjectProvider<Findings> findings,
      ObjectProvider<MeterRegistry> meterRegistry,
      ObjectProvider<ApplicationGuard> applicationGuard) {
    return new TransactionProviderGuarding(config, findings, meterRegistry, applicationGuard);
  }

  /**
   * The guard's statement listener on Boot's jOOQ configuration (Boot adds every {@code
   * ExecuteListenerProvider} bean to it), so a {@code SELECT ... FOR UPDATE} run through the {@code
   * DSLContext} inside a {@code @Transactional} method is known when a savepoint follows. None when
   * {@code faultline.jooq.guard=false}.
   */
  @Bean
  ExecuteListenerProvider faultlineExecuteListenerProvider(ApplicationGuard applicationGuard) {
    return applicationGuard.enabled() ? applicationGuard.get().executeListenerProvider() : null;
  }

  /**
   * {@code @Transactional} without the agent: Spring 6.1's transaction execution listeners tell the
   * guard of every transaction and savepoint Spring's managers begin.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.transaction.TransactionExecutionListener")
  static class SpringTransactions {

    /** Static, as post-processors must be. */
    @Bean
    static TransactionManagerListening faultlineTransactionManagerListening(
        ObjectProvider<ApplicationGuard> applicationGuard) {
      return new TransactionManagerListening(applicationGuard);
    }
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
