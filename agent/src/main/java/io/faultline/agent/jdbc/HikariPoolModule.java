package io.faultline.agent.jdbc;

import static io.faultline.agent.instrumentation.MethodMatcher.isConstructor;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.besides;

import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import io.faultline.jooq.pool.PoolFeedbackConfigKeys;
import java.util.List;

/**
 * Finds the application's HikariCP pools without a code change, for pool feedback (feature {@code
 * jooq.pool-feedback}): exit advice on every {@code com.zaxxer.hikari.HikariDataSource} constructor
 * hands the new instance to {@link HikariPools}, which starts a {@link
 * io.faultline.jooq.pool.PoolFeedbackMonitor} once the pool has started. Constructors rather than
 * {@code getConnection()}: nothing is added to the application's hot path.
 */
public final class HikariPoolModule implements InstrumentationModule {

  /** The module name: the {@code module} tag of {@code faultline.agent.errors}. */
  public static final String NAME = "hikari-pool-feedback";

  /** The module's switch, read by its advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  static final String HIKARI_DATA_SOURCE = "com.zaxxer.hikari.HikariDataSource";

  /** Public so {@link java.util.ServiceLoader} can create it. */
  public HikariPoolModule() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return PoolFeedbackConfigKeys.FEATURE;
  }

  /** Only {@code HikariDataSource}. */
  @Override
  public List<String> targetNames() {
    return List.of(HIKARI_DATA_SOURCE);
  }

  @Override
  public List<TypeInstrumentation> types() {
    return List.of(
        TypeInstrumentation.forType(
            HIKARI_DATA_SOURCE,
            AdviceBinding.of(
                isConstructor(), besides(HikariPoolModule.class, "HikariConstructedAdvice"))));
  }
}
