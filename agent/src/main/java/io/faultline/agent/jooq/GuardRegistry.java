package io.faultline.agent.jooq;

import io.faultline.agent.AgentRuntime;
import io.faultline.core.LogText;
import io.faultline.core.Loggers;
import java.lang.reflect.Constructor;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * One {@link TransactionHooks} (one jooq-guard {@code TransactionGuard}) per class loader of jOOQ,
 * created the first time one of its providers is called. The first guard registers the meters;
 * further loaders (rare: two applications in one JVM) are guarded and raise findings, but count in
 * their own guard only, since Micrometer keeps the first meter of a name.
 */
public final class GuardRegistry {

  private static final System.Logger LOG = Loggers.get(GuardRegistry.class.getName());
  private static final String BRIDGE = "io.faultline.agent.jooq.bridge.GuardBridge";

  private static final Map<ClassLoader, TransactionHooks> BY_LOADER = new WeakHashMap<>();
  private static boolean metersTaken;

  private static final ClassValue<TransactionHooks> BY_PROVIDER_TYPE =
      new ClassValue<>() {
        @Override
        protected TransactionHooks computeValue(Class<?> type) {
          return forLoader(type.getClassLoader());
        }
      };

  private GuardRegistry() {}

  /** The hooks for {@code provider}'s jOOQ, or null when the agent is not running. */
  public static TransactionHooks hooksFor(Object provider) {
    if (provider == null || AgentRuntime.current().isEmpty()) {
      return null;
    }
    return BY_PROVIDER_TYPE.get(provider.getClass());
  }

  private static synchronized TransactionHooks forLoader(ClassLoader jooqLoader) {
    TransactionHooks hooks = BY_LOADER.get(jooqLoader);
    if (hooks != null) {
      return hooks;
    }
    AgentRuntime runtime = AgentRuntime.current().orElseThrow();
    try {
      ClassLoader loader = new GuardClassLoader(jooqLoader, GuardRegistry.class.getClassLoader());
      Constructor<?> constructor =
          loader.loadClass(BRIDGE).getConstructor(AgentRuntime.class, boolean.class);
      hooks = (TransactionHooks) constructor.newInstance(runtime, !metersTaken);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot create the jOOQ transaction guard: " + e, e);
    }
    if (!metersTaken) {
      metersTaken = true;
      NestingHotspots.installStatusSection(runtime);
    }
    BY_LOADER.put(jooqLoader, hooks);
    LOG.log(
        System.Logger.Level.INFO,
        "faultline: guarding jOOQ transactions of "
            + (jooqLoader == null ? "the JDK" : LogText.oneLine(jooqLoader)));
    return hooks;
  }
}
