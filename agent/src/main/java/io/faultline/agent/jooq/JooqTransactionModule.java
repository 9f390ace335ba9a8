package io.faultline.agent.jooq;

import static io.faultline.agent.instrumentation.MethodMatcher.isPublic;
import static io.faultline.agent.instrumentation.MethodMatcher.named;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArgument;
import static io.faultline.agent.instrumentation.MethodMatcher.takesArguments;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.besides;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.MethodMatcher;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.jooq.JooqConfigKeys;
import java.util.List;

/**
 * jooq-guard's accounting, nesting policy and timeouts on jOOQ's own transaction providers, without
 * a code change: {@code DefaultTransactionProvider} (its {@code public final} methods), {@code
 * ThreadLocalTransactionProvider} and Spring Boot's {@code SpringTransactionProvider} (Boot 2/3 and
 * 4 package names). The methods are {@code begin/commit/rollback(TransactionContext)} in jOOQ 3.19
 * to 3.21 alike. Switched by {@code jooq.guard}; configured by the other {@code jooq.*} keys.
 */
public final class JooqTransactionModule implements InstrumentationModule {

  /** The module's name, also the {@code module} tag of its errors. */
  public static final String NAME = "jooq-transaction-provider-3.19";

  /** Read by the advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  private static final String[] PROVIDERS = {
    "org.jooq.impl.DefaultTransactionProvider",
    "org.jooq.impl.ThreadLocalTransactionProvider",
    "org.springframework.boot.autoconfigure.jooq.SpringTransactionProvider",
    "org.springframework.boot.jooq.autoconfigure.SpringTransactionProvider",
  };

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return JooqConfigKeys.GUARD;
  }

  /** jOOQ's transaction providers and Spring Boot's. */
  @Override
  public List<String> targetNames() {
    return List.of(PROVIDERS);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return java.util.Arrays.stream(PROVIDERS)
        .map(
            type ->
                TypeInstrumentation.forType(
                    type,
                    AdviceBinding.of(
                        phase("begin"), besides(JooqTransactionModule.class, "BeginAdvice")),
                    AdviceBinding.of(
                        phase("commit"), besides(JooqTransactionModule.class, "CommitAdvice")),
                    AdviceBinding.of(
                        phase("rollback"), besides(JooqTransactionModule.class, "RollbackAdvice"))))
        .toList();
  }

  private static MethodMatcher phase(String name) {
    return named(name)
        .and(isPublic())
        .and(takesArguments(1))
        .and(takesArgument(0, "org.jooq.TransactionContext"));
  }
}
