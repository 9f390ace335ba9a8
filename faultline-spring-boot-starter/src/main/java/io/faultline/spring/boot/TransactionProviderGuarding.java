package io.faultline.spring.boot;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedThreadLocalTransactionProvider;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.JooqConfigKeys;
import io.faultline.jooq.internal.SavepointBehaviour;
import io.micrometer.core.instrument.MeterRegistry;
import org.jooq.TransactionProvider;
import org.jooq.impl.ThreadLocalTransactionProvider;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Replaces each {@link TransactionProvider} bean with a {@link GuardedTransactionProvider} around
 * it, configured from the {@code faultline.jooq.*} properties. A single provider that makes nested
 * transactions savepoints (Boot's {@code SpringTransactionProvider}) shares the {@link
 * ApplicationGuard} with Spring's transaction managers, so a {@code dsl.transaction} inside a
 * {@code @Transactional} method is counted once, as the savepoint it is; where the application has
 * several providers, each has a guard of its own whose meters carry {@code provider=<bean name>}.
 * Boot's jOOQ auto-configuration asks for the provider by jOOQ's interface, so its {@code
 * DSLContext} then goes through the guard.
 */
final class TransactionProviderGuarding implements BeanPostProcessor, BeanFactoryAware {

  private static final System.Logger LOG =
      System.getLogger(TransactionProviderGuarding.class.getName());

  private final ObjectProvider<FaultlineConfig> config;
  private final ObjectProvider<Findings> findings;
  private final ObjectProvider<MeterRegistry> meterRegistry;
  private final ObjectProvider<ApplicationGuard> shared;
  private final AgentPresence agent;
  private ListableBeanFactory beans;

  TransactionProviderGuarding(
      ObjectProvider<FaultlineConfig> config,
      ObjectProvider<Findings> findings,
      ObjectProvider<MeterRegistry> meterRegistry,
      ObjectProvider<ApplicationGuard> shared) {
    this(config, findings, meterRegistry, shared, AgentPresence.ofThisJvm());
  }

  TransactionProviderGuarding(
      ObjectProvider<FaultlineConfig> config,
      ObjectProvider<Findings> findings,
      ObjectProvider<MeterRegistry> meterRegistry,
      ObjectProvider<ApplicationGuard> shared,
      AgentPresence agent) {
    this.config = config;
    this.findings = findings;
    this.meterRegistry = meterRegistry;
    this.shared = shared;
    this.agent = agent;
  }

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    if (beanFactory instanceof ListableBeanFactory listable) {
      this.beans = listable;
    }
  }

  private boolean severalProviders() {
    return beans != null
        && beans.getBeanNamesForType(TransactionProvider.class, true, false).length > 1;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (!(bean instanceof TransactionProvider provider)) {
      return bean;
    }
    if (provider instanceof GuardedTransactionProvider
        || provider instanceof GuardedThreadLocalTransactionProvider) {
      // Wired by hand: guarding it again would count every transaction twice.
      LOG.log(
          System.Logger.Level.INFO,
          "faultline: TransactionProvider bean ''{0}'' is already guarded; left as it is",
          beanName);
      ApplicationGuard application = shared.getIfAvailable();
      if (provider instanceof GuardedTransactionProvider guarded
          && application != null
          && !severalProviders()) {
        // Spring's transaction managers report to the same guard: one set of meters, not two
        // colliding on the registry, and one record per transaction.
        application.adopt(guarded.guard(), beanName);
      }
      return bean;
    }
    if (provider instanceof ThreadLocalTransactionProvider) {
      // A decorator would hide the class jOOQ recognises thread-local transactions by.
      LOG.log(
          System.Logger.Level.WARNING,
          "faultline: TransactionProvider bean ''{0}'' is a ThreadLocalTransactionProvider, which"
              + " cannot be decorated; declare a GuardedThreadLocalTransactionProvider instead",
          beanName);
      return bean;
    }
    FaultlineConfig settings = config.getObject();
    if (!settings.isFeatureEnabled(JooqConfigKeys.GUARD)) {
      LOG.log(
          System.Logger.Level.INFO,
          "faultline: jooq.guard is off; TransactionProvider bean ''{0}'' is not guarded",
          beanName);
      return bean;
    }
    agent.reportOnce();
    boolean several = severalProviders();
    ApplicationGuard application = shared.getIfAvailable();
    if (!several && application != null && SavepointBehaviour.savepoints(provider)) {
      return GuardedTransactionProvider.sharing(provider, application.get());
    }
    GuardedTransactionProvider.Builder guard =
        GuardedTransactionProvider.wrap(provider).config(settings);
    findings.ifAvailable(guard::findings);
    meterRegistry.ifAvailable(guard::meterRegistry);
    if (several) {
      // Two guards' meters on one registry would collide: the second's would be dropped.
      guard.tags("provider", beanName);
    }
    return guard.build();
  }
}
