package io.faultline.agent.instrumentation;

import io.faultline.core.config.FaultlineConfig;
import java.util.List;

/**
 * One unit of instrumentation, e.g. the request phases of kafka-clients' {@code NetworkClient}: a
 * name, the feature that switches it, and the types it weaves advice into.
 *
 * <p><b>Registering.</b> List the implementation in the agent's {@code
 * META-INF/services/io.faultline.agent.instrumentation.InstrumentationModule}; the agent creates it
 * with {@link java.util.ServiceLoader} from its own class loader at start, so a constructor must be
 * public, take no arguments and do nothing expensive.
 *
 * <p><b>Laziness.</b> A module whose feature is off is never installed. An installed module costs a
 * name comparison per loaded class until one of its targets loads; only then is advice woven. Match
 * types by name ({@code named("org.apache.kafka.clients.NetworkClient")}), never by loading a
 * library class: the library may be absent, or loaded later by another class loader.
 *
 * <p><b>Advice</b> is inlined into the target's bytecode, in the application's class loader, by the
 * agent's weaver ({@link io.faultline.agent.weave}). It must:
 *
 * <ul>
 *   <li>be annotated {@code @Advice.OnMethodEnter(suppress = Throwable.class)} / {@code
 *       OnMethodExit(suppress = Throwable.class, onThrowable = ...)} ({@link
 *       io.faultline.agent.weave.Advice}): the framework sends every suppressed throwable to {@link
 *       AgentErrors#suppressed}, counted against this module;
 *   <li>call only public members (no lambdas, no private helpers: the code runs in another class);
 *   <li>start with {@code if (!SWITCH.active()) return;} on the module's {@link ModuleSwitch};
 *   <li>pass only JDK types and the library's own objects (as {@code Object} or the library type)
 *       to Faultline code in the agent jar, which is visible to the application through the system
 *       class loader; keep the logic there, not in the advice.
 * </ul>
 */
public interface InstrumentationModule {

  /**
   * A stable, lowercase name that carries the oldest library version it supports, e.g. {@code
   * kafka-network-client-3.0}; the {@code module} tag of {@code faultline.agent.errors}.
   */
  String name();

  /**
   * The configuration feature that switches this module (its on/off key, declared in the owning
   * module's {@link io.faultline.core.config.ConfigKeyCatalog}); a feature no catalog declares is
   * on.
   */
  String feature();

  /**
   * Whether the module is installed with {@code config}: by default when {@link #feature()} is on.
   * A module that weaves methods several features share says "when any of them is".
   */
  default boolean enabledIn(FaultlineConfig config) {
    return config.isFeatureEnabled(feature());
  }

  /** Why the module is off when {@link #enabledIn} says no, for the status page. */
  default String disabledReason() {
    return "feature " + feature() + " is off";
  }

  /** The types to weave and the advice for each. */
  List<TypeInstrumentation> types();

  /**
   * Opt-in for modules whose targets are JDK ({@code java.base}) classes, which every other module
   * ignores: the names of the bridge classes its advice calls (public, JDK types only, e.g. {@code
   * io.faultline.bootstrap.ConnectHook}). They are put on the bootstrap class path before the
   * module is woven, its types are matched only in the bootstrap loader, and its advice reports
   * suppressed throwables through {@code io.faultline.bootstrap.BootstrapErrors} instead of {@link
   * AgentErrors} (which such advice cannot see). Such advice cannot read a {@link ModuleSwitch}
   * either: the agent code behind the bridge checks it. Empty (the default) for ordinary modules.
   */
  default List<String> bootstrapClasses() {
    return List.of();
  }

  /**
   * The binary names of the classes this module weaves, when every one of its {@linkplain #types()
   * type instrumentations} names its type; empty (the default) when it finds its targets another
   * way, and then {@link #mayWeave} decides. Read once in {@code premain}: return constants, build
   * nothing (a {@code static final String} constant of another class is copied in by the compiler,
   * without loading that class).
   */
  default List<String> targetNames() {
    return List.of();
  }

  /**
   * For a module that names no {@linkplain #targetNames() targets}: whether it may weave a class
   * that loads while the agent is still installing the modules on its background thread. Such a
   * class loads unchanged (nobody waits for the agent); when this says it may be a target, it is
   * remembered and retransformed once the modules are in, so its later calls are observed. Decided
   * from the internal name, the loader ({@code null} for the bootstrap loader) and the class file
   * alone: the modules are not installed yet, and nothing may be loaded or reflected on here. Every
   * class an application loads during the start passes here, on the loading thread: it must be
   * cheap. The default — every class of an application class loader — is safe but makes the agent
   * look at every early class again.
   *
   * @param internalName the class's internal name ({@code a/b/C})
   * @param loader its loader, {@code null} for the bootstrap loader
   * @param classFile the class file
   */
  default boolean mayWeave(String internalName, ClassLoader loader, byte[] classFile) {
    return loader != null;
  }

  /**
   * For a module that names no {@linkplain #targetNames() targets}: a cheap look at a class file
   * before it is parsed and matched against {@link #types()}; false means no type instrumentation
   * of this module can match it, and the module's transformer is not called for it at all. Every
   * class the application loads passes here once per such module. The default is {@link #mayWeave};
   * a module may look further here, as the modules are installed (configured annotations, say).
   *
   * @param internalName the class's internal name ({@code a/b/C})
   * @param loader its loader, {@code null} for the bootstrap loader
   * @param classFile the class file
   */
  default boolean mayMatch(String internalName, ClassLoader loader, byte[] classFile) {
    return mayWeave(internalName, loader, classFile);
  }

  /** The switch its advice reads; the same instance as {@code ModuleSwitch.of(name())}. */
  default ModuleSwitch moduleSwitch() {
    return ModuleSwitch.of(name());
  }
}
