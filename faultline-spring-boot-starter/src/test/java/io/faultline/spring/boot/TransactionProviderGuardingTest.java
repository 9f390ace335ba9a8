package io.faultline.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.faultline.core.config.FaultlineConfig;
import io.faultline.core.finding.Findings;
import io.faultline.jooq.GuardedTransactionProvider;
import io.faultline.jooq.NestingPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import org.jooq.TransactionProvider;
import org.jooq.impl.DefaultTransactionProvider;
import org.jooq.impl.NoConnectionProvider;
import org.jooq.impl.ThreadLocalTransactionProvider;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class TransactionProviderGuardingTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private TransactionProviderGuarding guarding(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
    FaultlineConfig config = SpringEnvironmentConfig.load(environment);
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    beans.registerSingleton("config", config);
    beans.registerSingleton("findings", new Findings(config));
    beans.registerSingleton("registry", registry);
    return new TransactionProviderGuarding(
        beans.getBeanProvider(FaultlineConfig.class),
        beans.getBeanProvider(Findings.class),
        beans.getBeanProvider(MeterRegistry.class),
        beans.getBeanProvider(ApplicationGuard.class),
        new AgentPresence(false));
  }

  @Test
  void aProviderBecomesAGuardedOneAroundIt() {
    TransactionProvider provider = new DefaultTransactionProvider(new NoConnectionProvider());
    Object bean =
        guarding(Map.of("faultline.jooq.nesting", "fail"))
            .postProcessAfterInitialization(provider, "transactionProvider");
    assertThat(bean).isInstanceOf(GuardedTransactionProvider.class);
    GuardedTransactionProvider guarded = (GuardedTransactionProvider) bean;
    assertThat(guarded.delegate()).isSameAs(provider);
    assertThat(guarded.guard().nestingPolicy()).isEqualTo(NestingPolicy.FAIL);
    assertThat(registry.find("faultline.jooq.transactions").meters())
        .as("meters on the application's registry")
        .isNotEmpty();
  }

  @Test
  void twoProvidersMetersAreToldApartByBeanName() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    beans.registerSingleton("orders", new DefaultTransactionProvider(new NoConnectionProvider()));
    beans.registerSingleton("billing", new DefaultTransactionProvider(new NoConnectionProvider()));
    TransactionProviderGuarding guarding = guarding(Map.of());
    guarding.setBeanFactory(beans);
    guarding.postProcessAfterInitialization(beans.getBean("orders"), "orders");
    guarding.postProcessAfterInitialization(beans.getBean("billing"), "billing");
    assertThat(registry.find("faultline.jooq.transactions").tag("provider", "orders").meters())
        .isNotEmpty();
    assertThat(registry.find("faultline.jooq.transactions").tag("provider", "billing").meters())
        .isNotEmpty();
  }

  @Test
  void oneProvidersMetersCarryNoProviderTag() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    beans.registerSingleton("only", new DefaultTransactionProvider(new NoConnectionProvider()));
    TransactionProviderGuarding guarding = guarding(Map.of());
    guarding.setBeanFactory(beans);
    guarding.postProcessAfterInitialization(beans.getBean("only"), "only");
    assertThat(registry.find("faultline.jooq.transactions").meters())
        .isNotEmpty()
        .allMatch(m -> m.getId().getTag("provider") == null);
  }

  @Test
  void aSingleSavepointProviderSharesTheApplicationGuard() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    TransactionProvider provider = new DefaultTransactionProvider(new NoConnectionProvider());
    beans.registerSingleton("only", provider);
    FaultlineConfig config = FaultlineConfig.defaults();
    beans.registerSingleton("config", config);
    beans.registerSingleton("findings", new Findings(config));
    beans.registerSingleton("registry", registry);
    ApplicationGuard application =
        new ApplicationGuard(
            beans.getBeanProvider(FaultlineConfig.class),
            beans.getBeanProvider(Findings.class),
            beans.getBeanProvider(MeterRegistry.class),
            beans);
    beans.registerSingleton("application", application);
    TransactionProviderGuarding guarding =
        new TransactionProviderGuarding(
            beans.getBeanProvider(FaultlineConfig.class),
            beans.getBeanProvider(Findings.class),
            beans.getBeanProvider(MeterRegistry.class),
            beans.getBeanProvider(ApplicationGuard.class),
            new AgentPresence(false));
    guarding.setBeanFactory(beans);
    Object bean = guarding.postProcessAfterInitialization(provider, "only");
    assertThat(((GuardedTransactionProvider) bean).guard())
        .as("one guard for the provider and Spring's transaction managers")
        .isSameAs(application.get());
    assertThat(registry.find("faultline.jooq.transactions").tag("outcome", "committed").meters())
        .as("registered once")
        .hasSize(1);
  }

  @Test
  void aProviderThatJoinsInsteadOfSavepointsGetsAGuardOfItsOwn() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    TransactionProvider provider =
        new DefaultTransactionProvider(new NoConnectionProvider(), false);
    beans.registerSingleton("only", provider);
    FaultlineConfig config = FaultlineConfig.defaults();
    ApplicationGuard application =
        new ApplicationGuard(
            beans.getBeanProvider(FaultlineConfig.class),
            beans.getBeanProvider(Findings.class),
            beans.getBeanProvider(MeterRegistry.class),
            beans);
    beans.registerSingleton("config", config);
    beans.registerSingleton("application", application);
    TransactionProviderGuarding guarding =
        new TransactionProviderGuarding(
            beans.getBeanProvider(FaultlineConfig.class),
            beans.getBeanProvider(Findings.class),
            beans.getBeanProvider(MeterRegistry.class),
            beans.getBeanProvider(ApplicationGuard.class),
            new AgentPresence(false));
    guarding.setBeanFactory(beans);
    Object bean = guarding.postProcessAfterInitialization(provider, "only");
    assertThat(((GuardedTransactionProvider) bean).guard()).isNotSameAs(application.get());
  }

  @Test
  void aProviderGuardedByHandLendsItsGuardToSpringsTransactionManagers() {
    DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
    GuardedTransactionProvider own =
        GuardedTransactionProvider.wrap(new DefaultTransactionProvider(new NoConnectionProvider()))
            .meterRegistry(registry)
            .build();
    beans.registerSingleton("mine", own);
    beans.registerSingleton("config", FaultlineConfig.defaults());
    beans.registerSingleton("registry", registry);
    ApplicationGuard application =
        new ApplicationGuard(
            beans.getBeanProvider(FaultlineConfig.class),
            beans.getBeanProvider(Findings.class),
            beans.getBeanProvider(MeterRegistry.class),
            beans);
    beans.registerSingleton("application", application);
    TransactionProviderGuarding guarding =
        new TransactionProviderGuarding(
            beans.getBeanProvider(FaultlineConfig.class),
            beans.getBeanProvider(Findings.class),
            beans.getBeanProvider(MeterRegistry.class),
            beans.getBeanProvider(ApplicationGuard.class),
            new AgentPresence(false));
    guarding.setBeanFactory(beans);
    assertThat(guarding.postProcessAfterInitialization(own, "mine")).isSameAs(own);
    assertThat(application.get()).isSameAs(own.guard());
    assertThat(registry.find("faultline.jooq.transactions").tag("outcome", "committed").meters())
        .as("no second set of meters")
        .hasSize(1);
  }

  @Test
  void anAlreadyGuardedProviderIsNotGuardedTwice() {
    GuardedTransactionProvider own =
        GuardedTransactionProvider.wrap(new DefaultTransactionProvider(new NoConnectionProvider()))
            .build();
    assertThat(guarding(Map.of()).postProcessAfterInitialization(own, "mine")).isSameAs(own);
  }

  @Test
  void guardFalseLeavesTheProviderAlone() {
    TransactionProvider provider = new DefaultTransactionProvider(new NoConnectionProvider());
    assertThat(
            guarding(Map.of("faultline.jooq.guard", "false"))
                .postProcessAfterInitialization(provider, "transactionProvider"))
        .isSameAs(provider);
  }

  @Test
  void aThreadLocalProviderIsLeftAlone() {
    TransactionProvider provider = new ThreadLocalTransactionProvider(new NoConnectionProvider());
    assertThat(guarding(Map.of()).postProcessAfterInitialization(provider, "tl"))
        .isSameAs(provider);
  }

  @Test
  void otherBeansPassThrough() {
    Object other = new Object();
    assertThat(guarding(Map.of()).postProcessAfterInitialization(other, "other")).isSameAs(other);
  }

  @Test
  void theAgentIsRecognisedByItsJar() {
    assertThat(AgentPresence.attached(java.util.List.of("-javaagent:/opt/faultline-agent.jar")))
        .isTrue();
    assertThat(
            AgentPresence.attached(
                java.util.List.of("-javaagent:/opt/opentelemetry-javaagent.jar", "-Xmx1g")))
        .isFalse();
  }
}
