package io.faultline.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;

import io.faultline.core.config.FaultlineConfig;
import java.lang.System.Logger.Level;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.Nexus;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.bytecode.StackManipulation;
import net.bytebuddy.implementation.bytecode.constant.TextConstant;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the {@link InstrumentationModule}s: one Byte Buddy class-file transformer per enabled
 * module, all built from one base configuration (retransformation, no class-format changes, our own
 * and the JDK's classes ignored), so a module whose weave fails cannot take another module's advice
 * down with it. A module may opt in to JDK targets ({@link
 * InstrumentationModule#bootstrapClasses()}); only its own transformer then looks at bootstrap
 * classes.
 */
public final class InstrumentationInstaller {

  private static final System.Logger LOG =
      System.getLogger(InstrumentationInstaller.class.getName());

  /** Rounds (and the pause between them) in which a late class is looked for among loaded ones. */
  private static final int LATE_LOOKUP_ROUNDS = 10;

  private static final long LATE_LOOKUP_PAUSE_MILLIS = 20;

  private static final Object NEXUS_SWITCH = new Object();
  private static boolean nexusSwitchedOff;

  private final Instrumentation instrumentation;
  private final ClassLoader agentLoader;
  private final boolean scanLoadedClasses;
  private final List<InstalledModule> installed = new ArrayList<>();
  private final SeesAgentClasses seesAgent = new SeesAgentClasses();
  private final StartTypeCaches startCaches = new StartTypeCaches();

  /**
   * Installs into {@code instrumentation}; advice classes are read from {@code agentLoader}. With
   * {@code scanLoadedClasses} (a late attach) every loaded class is matched and its targets
   * retransformed at once; without it (premain) only new loads are woven, and the classes that
   * loaded during the start are handed over by {@link #weaveLate}.
   */
  public InstrumentationInstaller(
      Instrumentation instrumentation, ClassLoader agentLoader, boolean scanLoadedClasses) {
    this.instrumentation = instrumentation;
    this.agentLoader = agentLoader;
    this.scanLoadedClasses = scanLoadedClasses;
  }

  /**
   * The modules registered with {@link ServiceLoader} in {@code loader}; a module that cannot be
   * created is reported and skipped.
   */
  public static List<InstrumentationModule> discover(ClassLoader loader) {
    List<InstrumentationModule> modules = new ArrayList<>();
    ServiceLoader<InstrumentationModule> services =
        ServiceLoader.load(InstrumentationModule.class, loader);
    var iterator = services.iterator();
    while (true) {
      try {
        if (!iterator.hasNext()) {
          break;
        }
        modules.add(iterator.next());
      } catch (ServiceConfigurationError | LinkageError e) {
        LOG.log(Level.WARNING, "faultline: an instrumentation module could not be created: " + e);
      }
    }
    return modules;
  }

  /**
   * Installs every module whose feature is on in {@code config}; the others are recorded as off.
   * Never throws: a module that cannot be installed is reported, counted and skipped.
   */
  public List<InstalledModule> install(
      List<InstrumentationModule> modules, FaultlineConfig config) {
    for (InstrumentationModule module : modules) {
      InstalledModule entry = new InstalledModule(module);
      String name;
      try {
        name = module.name();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "faultline: skipping an instrumentation module without a name", e);
        continue;
      }
      installed.add(entry);
      try {
        if (!module.enabledIn(config)) {
          entry.moduleSwitch().turnOff(ModuleSwitch.State.OFF_BY_CONFIG, module.disabledReason());
          continue;
        }
        installOne(entry);
      } catch (Throwable e) {
        AgentErrors.weaveFailed(name, "(installing the module)", e);
      }
    }
    return List.copyOf(installed);
  }

  /**
   * Drops the type descriptions kept while the agent started (see {@link StartTypeCaches}); a class
   * woven later is described afresh.
   */
  public void forgetStartDescriptions() {
    startCaches.close();
  }

  /** Every module seen by {@link #install}, in order. */
  public List<InstalledModule> modules() {
    return List.copyOf(installed);
  }

  /**
   * Weaves the classes that loaded before the modules were installed: those of {@code early} that
   * are loaded (a class still being defined is looked for again, for a moment) and that a type
   * instrumentation of an active module matches are retransformed. Runs on the agent's thread;
   * returns how many classes were retransformed.
   */
  public int weaveLate(List<DeferredTransformer.EarlyClass> early) {
    if (early.isEmpty()) {
      return 0;
    }
    List<LateMatch> modules = new ArrayList<>();
    for (InstalledModule entry : installed) {
      InstrumentationModule module = entry.module();
      try {
        if (entry.moduleSwitch().active() && module.bootstrapClasses().isEmpty()) {
          modules.add(new LateMatch(module));
        }
      } catch (RuntimeException | LinkageError e) {
        AgentErrors.weaveFailed(entry.name(), "(late weave)", e);
      }
    }
    List<Class<?>> targets = new ArrayList<>();
    for (Map.Entry<Class<?>, DeferredTransformer.EarlyClass> found :
        LateClasses.find(instrumentation, early, LATE_LOOKUP_ROUNDS, LATE_LOOKUP_PAUSE_MILLIS)
            .entrySet()) {
      if (isTargeted(found.getKey(), found.getValue(), modules)) {
        targets.add(found.getKey());
      }
    }
    if (targets.isEmpty()) {
      return 0;
    }
    try {
      instrumentation.retransformClasses(targets.toArray(Class<?>[]::new));
      return targets.size();
    } catch (Throwable batchFailed) {
      int done = 0;
      for (Class<?> type : targets) {
        try {
          instrumentation.retransformClasses(type);
          done++;
        } catch (Throwable e) {
          AgentErrors.weaveFailed("(late weave)", type.getName(), e);
        }
      }
      return done;
    }
  }

  /**
   * One active module's targets for {@link #weaveLate}: the exactly named ones, compared by name,
   * and the others (an annotation), matched against the class file only when {@link
   * InstrumentationModule#mayMatch} lets it through. Parsing every early class file (hundreds of
   * kafka-clients classes) for every module was most of the late weave's time.
   */
  private static final class LateMatch {
    final InstrumentationModule module;
    final java.util.Set<String> names = new java.util.HashSet<>();
    final List<TypeInstrumentation> others = new ArrayList<>();

    LateMatch(InstrumentationModule module) {
      this.module = module;
      for (TypeInstrumentation t : module.types()) {
        if (t.typeName() != null) {
          names.add(t.typeName());
        } else {
          others.add(t);
        }
      }
    }
  }

  /**
   * Whether an active module whose gate let {@code early} through targets {@code type} (its class
   * file read, never reflected on). Only those modules are asked: reading the class file of every
   * early kafka-clients class again for a module that matches by annotation cost a hundred
   * milliseconds and the JIT compilation of the JDK's resource lookup.
   */
  private boolean isTargeted(
      Class<?> type, DeferredTransformer.EarlyClass early, List<LateMatch> modules) {
    ClassLoader loader = type.getClassLoader();
    if (loader == null || !instrumentation.isModifiableClass(type) || !seesAgent.matches(loader)) {
      return false;
    }
    String name = type.getName();
    for (LateMatch m : modules) {
      if (m.names.contains(name)) {
        return true;
      }
    }
    byte[] classFile = null;
    for (LateMatch m : modules) {
      if (m.others.isEmpty() || !early.mayBeWovenBy(m.module)) {
        continue;
      }
      try {
        if (classFile == null) {
          ClassFileLocator.Resolution found =
              ClassFileLocator.ForClassLoader.of(loader).locate(name);
          if (!found.isResolved()) {
            return false;
          }
          classFile = found.resolve();
        }
        if (!m.module.mayMatch(name.replace('.', '/'), loader, classFile)) {
          continue;
        }
        TypeDescription description =
            TypePool.Default.WithLazyResolution.of(
                    new ClassFileLocator.Compound(
                        ClassFileLocator.Simple.of(name, classFile),
                        ClassFileLocator.ForClassLoader.of(loader)))
                .describe(name)
                .resolve();
        for (TypeInstrumentation t : m.others) {
          if (t.typeMatcher().matches(description) && !description.isSynthetic()) {
            return true;
          }
        }
      } catch (java.io.IOException | RuntimeException | LinkageError e) {
        // a class file that cannot be read or described is left as it loaded
      }
    }
    return false;
  }

  private void installOne(InstalledModule entry) {
    InstrumentationModule module = entry.module();
    List<String> bridge = module.bootstrapClasses();
    if (!bridge.isEmpty()) {
      installBootstrapModule(entry, bridge);
      return;
    }
    // Names only: the ignore matcher is asked about every class the JVM loads, once per module,
    // and a matcher that needs the modifiers (isSynthetic) made Byte Buddy parse each class file
    // that many times. Synthetic classes are left out after a target's name matched instead.
    AgentBuilder.Ignored base =
        baseBuilder(
                entry,
                scanLoadedClasses
                    ? AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.SinglePass.INSTANCE
                    : new AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.Explicit())
            .ignore(
                nameStartsWith("io.faultline.")
                    .or(nameStartsWith("net.bytebuddy."))
                    .or(nameStartsWith("java."))
                    .or(nameStartsWith("jdk."))
                    .or(nameStartsWith("sun."))
                    .or(nameStartsWith("com.sun.")))
            .or(any(), isBootstrapClassLoader());
    AgentBuilder builder = base;
    for (TypeInstrumentation type : module.types()) {
      builder =
          builder
              .type(notSynthetic(type.typeMatcher()), seesAgent)
              .transform(
                  new AdviceTransformer(
                      entry,
                      type,
                      agentLoader,
                      MethodInvocation.invoke(agentErrorsHandler()),
                      startCaches.agentTypes()));
    }
    builder.installOn(
        instrumentation instanceof DeferringInstrumentation deferring
            ? deferring.filtered(classFileFilter(module))
            : instrumentation);
  }

  /**
   * Which class files the module's Byte Buddy transformer sees at all: when every type
   * instrumentation names its one type, those names and nothing else (kafka-clients alone loads
   * hundreds of classes, and each went through Byte Buddy's matching once per module); otherwise
   * the module's own {@link InstrumentationModule#mayMatch}.
   */
  private static DeferringInstrumentation.ClassFileFilter classFileFilter(
      InstrumentationModule module) {
    java.util.Set<String> internalNames = new java.util.HashSet<>();
    for (TypeInstrumentation type : module.types()) {
      if (type.typeName() == null) {
        return module::mayMatch;
      }
      internalNames.add(type.typeName().replace('.', '/'));
    }
    return (internalName, loader, classFile) -> internalNames.contains(internalName);
  }

  /**
   * A module that opted in to JDK targets ({@link InstrumentationModule#bootstrapClasses()}): its
   * bridge goes on the bootstrap class path first (no bridge, no weave: the advice would not link),
   * then its types are matched in the bootstrap loader only and the already-loaded ones are
   * retransformed.
   */
  private void installBootstrapModule(InstalledModule entry, List<String> bridge) {
    String failure = BootstrapBridge.install(instrumentation, agentLoader, bridge);
    if (failure != null) {
      if (entry.moduleSwitch().turnOff(ModuleSwitch.State.INCOMPATIBLE, failure)) {
        LOG.log(
            Level.WARNING,
            "faultline: instrumentation module " + entry.name() + " is off: " + failure);
      }
      return;
    }
    AgentBuilder builder =
        baseBuilder(entry, discoveryOf(entry.module()))
            .ignore(nameStartsWith("io.faultline.").or(nameStartsWith("net.bytebuddy.")));
    StackManipulation handler = bootstrapErrorsHandler();
    for (TypeInstrumentation type : entry.module().types()) {
      builder =
          builder
              .type(notSynthetic(type.typeMatcher()), isBootstrapClassLoader())
              .transform(
                  new AdviceTransformer(
                      entry, type, agentLoader, handler, startCaches.agentTypes()));
    }
    DeferringInstrumentation.ClassFileFilter names = classFileFilter(entry.module());
    builder.installOn(
        instrumentation instanceof DeferringInstrumentation deferring
            ? deferring.filtered(
                (internalName, loader, classFile) ->
                    loader == null && names.mayTransform(internalName, loader, classFile))
            : instrumentation);
  }

  /**
   * The loaded classes a bootstrap module's retransformation looks at: its targets by name when
   * each of its type instrumentations names one, otherwise every loaded class, scanned again until
   * no new one appears (a target can load while another is retransformed).
   */
  private static AgentBuilder.RedefinitionStrategy.DiscoveryStrategy discoveryOf(
      InstrumentationModule module) {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (TypeInstrumentation type : module.types()) {
      if (type.typeName() == null) {
        return AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.Reiterating.INSTANCE;
      }
      names.add(type.typeName());
    }
    return new NamedTargetsDiscovery(names);
  }

  /** {@code typeMatcher}, then not synthetic: the modifiers are read only for a matching name. */
  private static ElementMatcher<TypeDescription> notSynthetic(
      ElementMatcher<? super TypeDescription> typeMatcher) {
    return new ElementMatcher.Junction.AbstractBase<>() {
      @Override
      public boolean matches(TypeDescription type) {
        return typeMatcher.matches(type) && !type.isSynthetic();
      }

      @Override
      public String toString() {
        return typeMatcher + " and not synthetic";
      }
    };
  }

  private AgentBuilder baseBuilder(
      InstalledModule entry, AgentBuilder.RedefinitionStrategy.DiscoveryStrategy discovery) {
    return newAgentBuilder()
        .disableClassFormatChanges()
        // Types are described from their class files, also when retransforming: reflecting on a
        // loaded class (getDeclaredMethods) loads the classes its signatures name, and can wait
        // for a class-loading lock an application thread holds.
        .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
        .with(startCaches.poolStrategy())
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(discovery)
        .with(new ModuleListener(entry));
  }

  /**
   * A Byte Buddy agent builder, the first one made with Byte Buddy's {@code Nexus} switched off.
   * Left on, the first builder injects Byte Buddy's {@code Nexus} class into the system class
   * loader (a class of ours in the application's loader, and about 100 ms of the start); it serves
   * only self-initialising generated types, which advice woven without class format changes never
   * needs. The switch is read once, when Byte Buddy's {@code NexusAccessor} initialises, so the
   * system property is set only around that first construction.
   */
  private static AgentBuilder.Default newAgentBuilder() {
    synchronized (NEXUS_SWITCH) {
      if (nexusSwitchedOff) {
        return new AgentBuilder.Default(byteBuddy());
      }
      String before = System.getProperty(Nexus.PROPERTY);
      System.setProperty(Nexus.PROPERTY, "true");
      try {
        return new AgentBuilder.Default(byteBuddy());
      } finally {
        nexusSwitchedOff = true;
        if (before == null) {
          System.clearProperty(Nexus.PROPERTY);
        } else {
          System.setProperty(Nexus.PROPERTY, before);
        }
      }
    }
  }

  /**
   * Byte Buddy as advice needs it: only the woven type's own methods are looked at (advice is woven
   * into declared methods; building the method graph of every supertype resolved thousands of
   * signatures, and its JIT compilation alone cost a fifth of a second of CPU), and the class file
   * is not validated again (only advice is added, nothing Byte Buddy would need to check).
   */
  private static ByteBuddy byteBuddy() {
    return new ByteBuddy()
        .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
        .with(TypeValidation.DISABLED);
  }

  /** Woven after ordinary advice: {@code AgentErrors.suppressed(<the throwable>, "<module>")}. */
  private static MethodDescription agentErrorsHandler() {
    try {
      return new MethodDescription.ForLoadedMethod(
          AgentErrors.class.getMethod("suppressed", Throwable.class, String.class));
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Woven after bootstrap advice: {@code BootstrapErrors.suppressed(<the throwable>, "<module>")},
   * described from the agent jar's class file so it is not loaded here.
   */
  private StackManipulation bootstrapErrorsHandler() {
    return MethodInvocation.invoke(
        uncachedPool(ClassFileLocator.ForClassLoader.of(agentLoader))
            .describe(BootstrapBridge.ERRORS_CLASS)
            .resolve()
            .getDeclaredMethods()
            .filter(named("suppressed"))
            .getOnly());
  }

  /**
   * A type pool that keeps nothing and describes JDK types from their loaded classes. The advice
   * descriptions live as long as the agent, and each holds the descriptions of the types its
   * signatures mention: parsed from class files, {@code Throwable}, {@code String} and {@code
   * Object} alone came with hundreds of methods, each with its own annotation maps (about 3 MB of
   * the agent's heap with a caching pool). Kafka's types are still parsed, a few, when weaving.
   */
  static TypePool uncachedPool(ClassFileLocator locator) {
    return pool(locator, TypePool.CacheProvider.NoOp.INSTANCE);
  }

  /** {@link #uncachedPool} with {@code cache}. */
  static TypePool pool(ClassFileLocator locator, TypePool.CacheProvider cache) {
    return new TypePool.Default(
        cache, locator, TypePool.Default.ReaderMode.FAST, TypePool.ClassLoading.ofBootLoader());
  }

  /**
   * Whether the class loader of a target resolves our classes to the agent's own. The answer is
   * cached per loader, and no lock is held while it is found: finding it loads a class through that
   * loader, which may wait for a lock an application thread holds, and that thread may be in this
   * matcher at the same moment (it was, beside the OpenTelemetry agent).
   */
  private static final class SeesAgentClasses
      extends ElementMatcher.Junction.AbstractBase<ClassLoader> {

    /** Loaders of other agents, which never see ours; told by their class name, never loaded. */
    private static final List<String> OTHER_AGENTS_LOADERS =
        List.of(
            "io.opentelemetry.javaagent.bootstrap.AgentClassLoader",
            "io.opentelemetry.javaagent.tooling.ExtensionClassLoader",
            "datadog.trace.bootstrap.DatadogClassLoader",
            "co.elastic.apm.agent.bci.classloading.IndyPluginClassLoader");

    private final Map<ClassLoader, Boolean> seen = Collections.synchronizedMap(new WeakHashMap<>());

    @Override
    public boolean matches(ClassLoader loader) {
      if (loader == null) {
        return false;
      }
      Boolean known = seen.get(loader);
      if (known == null) {
        known = resolvesAgent(loader);
        seen.put(loader, known);
      }
      return known;
    }

    private static boolean resolvesAgent(ClassLoader loader) {
      String loaderClass = loader.getClass().getName();
      if (OTHER_AGENTS_LOADERS.contains(loaderClass) || loaderClass.startsWith("io.faultline.")) {
        return false;
      }
      try {
        boolean same =
            Class.forName(AgentErrors.class.getName(), false, loader) == AgentErrors.class;
        if (!same) {
          LOG.log(
              Level.INFO,
              "faultline: not instrumenting classes of "
                  + loader
                  + ": it has a Faultline copy of its own");
        }
        return same;
      } catch (ClassNotFoundException | LinkageError e) {
        LOG.log(
            Level.INFO,
            "faultline: not instrumenting classes of "
                + loader
                + ": it does not delegate to the class loader of the agent");
        return false;
      }
    }
  }

  /** Weaves the advice of one type instrumentation, or turns the module off when it cannot fit. */
  private static final class AdviceTransformer implements AgentBuilder.Transformer {
    private final InstalledModule entry;
    private final TypeInstrumentation type;
    private final ClassFileLocator locator;
    private final ClassLoader agentLoader;
    private final Map<String, Advice> adviceCache = new ConcurrentHashMap<>();
    private final StackManipulation exceptionHandler;
    private final TypePool.CacheProvider agentTypes;

    /**
     * {@code errorCall} takes (Throwable, String module); it is woven after every advice. The
     * agent's own types are described through {@code agentTypes}.
     */
    AdviceTransformer(
        InstalledModule entry,
        TypeInstrumentation type,
        ClassLoader agentLoader,
        StackManipulation errorCall,
        TypePool.CacheProvider agentTypes) {
      this.entry = entry;
      this.agentTypes = agentTypes;
      this.type = type;
      this.agentLoader = agentLoader;
      this.locator = ClassFileLocator.ForClassLoader.of(agentLoader);
      this.exceptionHandler =
          new StackManipulation.Compound(new TextConstant(entry.name()), errorCall);
    }

    @Override
    public DynamicType.Builder<?> transform(
        DynamicType.Builder<?> builder,
        TypeDescription typeDescription,
        ClassLoader classLoader,
        JavaModule module,
        ProtectionDomain protectionDomain) {
      ModuleSwitch moduleSwitch = entry.moduleSwitch();
      if (!moduleSwitch.active()) {
        return builder;
      }
      for (TypeInstrumentation.AdviceBinding binding : type.advice()) {
        if (binding.required()
            && typeDescription.getDeclaredMethods().filter(binding.methods()).isEmpty()) {
          if (moduleSwitch.turnOff(
              ModuleSwitch.State.INCOMPATIBLE,
              typeDescription.getName()
                  + " has no method matching "
                  + binding.methods()
                  + " (for "
                  + binding.adviceClassName()
                  + ")")) {
            LOG.log(
                Level.WARNING,
                "faultline: instrumentation module "
                    + entry.name()
                    + " is off: "
                    + moduleSwitch.reason()
                    + ". This library version is not supported; the application runs unchanged.");
          }
          return builder;
        }
      }
      DynamicType.Builder<?> woven = builder;
      for (TypeInstrumentation.AdviceBinding binding : type.advice()) {
        woven = woven.visit(advice(binding.adviceClassName(), classLoader).on(binding.methods()));
      }
      return woven;
    }

    /**
     * The advice class, described with the types its signatures name resolved from the agent's jar
     * (the system class path, where the application's libraries usually are). A library in a loader
     * the agent cannot see (a child-first plugin loader) is described again next to that loader,
     * uncached: a cached description would keep the loader alive.
     */
    private Advice advice(String className, ClassLoader target) {
      try {
        return adviceCache.computeIfAbsent(
            className, name -> describe(pool(locator, agentTypes), name));
      } catch (RuntimeException notVisibleToTheAgent) {
        if (target == null || target == agentLoader) {
          throw notVisibleToTheAgent;
        }
        return describe(
            uncachedPool(
                new ClassFileLocator.Compound(locator, ClassFileLocator.ForClassLoader.of(target))),
            className);
      }
    }

    private Advice describe(TypePool types, String className) {
      return Advice.to(types.describe(className).resolve(), locator)
          .withExceptionHandler(new Advice.ExceptionHandler.Simple(exceptionHandler));
    }
  }

  /** Records woven types and failed weaves of one module. */
  private static final class ModuleListener extends AgentBuilder.Listener.Adapter {
    private final InstalledModule entry;

    ModuleListener(InstalledModule entry) {
      this.entry = entry;
    }

    @Override
    public void onTransformation(
        TypeDescription typeDescription,
        ClassLoader classLoader,
        JavaModule module,
        boolean loaded,
        DynamicType dynamicType) {
      if (entry.moduleSwitch().active()) {
        entry.woven(typeDescription.getName());
      }
    }

    @Override
    public void onError(
        String typeName,
        ClassLoader classLoader,
        JavaModule module,
        boolean loaded,
        Throwable throwable) {
      AgentErrors.weaveFailed(entry.name(), typeName, throwable);
    }
  }
}
