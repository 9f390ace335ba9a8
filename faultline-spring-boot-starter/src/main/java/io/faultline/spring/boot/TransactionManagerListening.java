package io.faultline.spring.boot;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Adds the {@link ManagedTransactionListener} to every imperative Spring transaction manager bean
 * (Boot's {@code DataSourceTransactionManager} or {@code JdbcTransactionManager}, a JPA one, or one
 * the application declares), so {@code @Transactional} nesting is seen without the agent. Reactive
 * managers are left alone: their transactions do not stay on one thread.
 */
final class TransactionManagerListening implements BeanPostProcessor {

  private static final System.Logger LOG =
      System.getLogger(TransactionManagerListening.class.getName());

  private static final AgentPresence AGENT = AgentPresence.ofThisJvm();

  private final ObjectProvider<ApplicationGuard> guard;
  private ManagedTransactionListener listener;

  TransactionManagerListening(ObjectProvider<ApplicationGuard> guard) {
    this.guard = guard;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    if (!(bean instanceof PlatformTransactionManager)
        || !(bean instanceof ConfigurableTransactionManager manager)) {
      return bean;
    }
    ApplicationGuard shared = guard.getObject();
    if (!shared.enabled()) {
      LOG.log(
          System.Logger.Level.INFO,
          "faultline: jooq.guard is off; transaction manager ''{0}'' is not watched",
          beanName);
      return bean;
    }
    AGENT.reportOnce();
    ManagedTransactionListener watching = listener(shared);
    if (!manager.getTransactionExecutionListeners().contains(watching)) {
      manager.addListener(watching);
    }
    return bean;
  }

  private synchronized ManagedTransactionListener listener(ApplicationGuard shared) {
    if (listener == null) {
      listener = new ManagedTransactionListener(shared);
    }
    return listener;
  }
}
