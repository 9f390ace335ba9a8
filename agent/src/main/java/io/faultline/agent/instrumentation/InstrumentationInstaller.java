package io.faultline.agent.instrumentation;

import io.faultline.agent.weave.ErrorHook;
import io.faultline.core.Loggers;
import io.faultline.core.config.FaultlineConfig;
import java.lang.System.Logger.Level;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Predicate;

/**
 * Installs the {@link InstrumentationModule}s: one class-file transformer per enabled module
 * ({@link ModuleTransformer}, weaving with the agent's own weaver; no class format changes, our own
 * and the JDK's classes ignored), so a module whose weave fails cannot take another module's advice
 * down with it. A module may opt in to JDK targets ({@link
 * InstrumentationModule#bootstrapClasses()}); only its own transformer then looks at bootstrap
 * classes.
 */
public final class InstrumentationInstaller {

  /**
   * Created at the first message: this class is used in {@code premain}, the logger need not be.
   */
  private static final class Log {
    static final System.Logger LOG = Loggers.get(InstrumentationInstaller.class.getName());
  }

  /** Rounds (and the pause between them) in which a late class is looked for among loaded ones. */
  private static final int LATE_LOOKUP_ROUNDS = 10;

  private static final long LATE_LOOKUP_PAUSE_MILLIS = 20;

  private final Instrumentation instrumentation;
  private final ClassLoader agentLoader;
  private final boolean scanLoadedClasses;
  private final List<InstalledModule> installed = new ArrayList<>();
  private final SeesAgentClasses seesAgent = new SeesAgentClasses();
  private final Map<InstalledModule, ModuleTransformer> transformers =
      Collections.synchronizedMap(new java.util.IdentityHashMap<>());

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
   * created is skipped and why is added to {@code failures} (nothing is logged: this runs in the
   * agent's {@code premain}, before its loggers are set up).
   */
  public static List<InstrumentationModule> discover(ClassLoader loader, List<String> failures) {
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
        failures.add("faultline: an instrumentation module could not be created: " + e);
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
        Log.LOG.log(
            Level.WARNING, "faultline: skipping an instrumentation module without a name", e);
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
    List<InstalledModule> modules = new ArrayList<>();
    for (InstalledModule entry : installed) {
      if (entry.moduleSwitch().active() && transformers.containsKey(entry)) {
        modules.add(entry);
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
   * Whether an active module whose gate let {@code early} through weaves {@code type} (its class
   * file read, never reflected on). Only those modules are asked: reading the class file of every
   * early kafka-clients class again for a module that matches by annotation cost a hundred
   * milliseconds.
   */
  private boolean isTargeted(
      Class<?> type, DeferredTransformer.EarlyClass early, List<InstalledModule> modules) {
    ClassLoader loader = type.getClassLoader();
    if (!instrumentation.isModifiableClass(type)) {
      return false;
    }
    String internalName = type.getName().replace('.', '/');
    if (loader == null) {
      return isBootstrapTarget(type, internalName, early, modules);
    }
    if (!seesAgent.test(loader)) {
      return false;
    }
    for (InstalledModule entry : modules) {
      ModuleTransformer transformer = transformers.get(entry);
      if (!transformer.bootstrap() && transformer.names(internalName)) {
        return true;
      }
    }
    byte[] classFile = null;
    for (InstalledModule entry : modules) {
      ModuleTransformer transformer = transformers.get(entry);
      if (transformer.bootstrap()
          || !transformer.filters()
          || !early.mayBeWovenBy(entry.module())) {
        continue;
      }
      try {
        if (classFile == null) {
          classFile = ClassFileBytes.read(loader, internalName);
          if (classFile == null) {
            return false;
          }
        }
        if (entry.module().mayMatch(internalName, loader, classFile)
            && transformer.wouldWeave(internalName, classFile)) {
          return true;
        }
      } catch (RuntimeException | LinkageError e) {
        // a class file that cannot be read or parsed is left as it loaded
      }
    }
    return false;
  }

  /**
   * Whether a JDK class that loaded during the start is a target of a module that weaves JDK
   * classes and is not woven yet: it loaded after the module's scan of the loaded classes and, like
   * every class of the start, unwoven. Without this, a {@code java.net.Socket} first loaded in that
   * window stayed unwoven for the life of the JVM.
   */
  private boolean isBootstrapTarget(
      Class<?> type,
      String internalName,
      DeferredTransformer.EarlyClass early,
      List<InstalledModule> modules) {
    for (InstalledModule entry : modules) {
      ModuleTransformer transformer = transformers.get(entry);
      if (transformer.bootstrap()
          && early.mayBeWovenBy(entry.module())
          && transformer.names(internalName)
          && !entry.wovenTypes().contains(type.getName())) {
        return true;
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
    ModuleTransformer transformer =
        transformer(
            entry,
            false,
            new ErrorHook(
                AgentErrors.class.getName().replace('.', '/'), "suppressed", entry.name()));
    if (transformer == null) {
      return;
    }
    transformers.put(entry, transformer);
    addTransformer(transformer, classFileFilter(module));
    if (scanLoadedClasses) {
      retransformLoaded(entry, transformer, false);
    }
  }

  /** The module's transformer, or null (the module turned off) when its advice cannot be read. */
  private ModuleTransformer transformer(
      InstalledModule entry, boolean bootstrap, ErrorHook errors) {
    try {
      return new ModuleTransformer(entry, agentLoader, bootstrap, seesAgent, errors);
    } catch (IllegalArgumentException e) {
      AgentErrors.weaveFailed(entry.name(), "(its advice)", e);
      return null;
    }
  }

  private void addTransformer(
      ModuleTransformer transformer, DeferringInstrumentation.ClassFileFilter filter) {
    if (instrumentation instanceof DeferringInstrumentation deferring) {
      deferring.filtered(filter).addTransformer(transformer, true);
    } else {
      instrumentation.addTransformer(transformer, true);
    }
  }

  /**
   * Which class files the module's transformer sees at all: when every type instrumentation names
   * its one type, those names and nothing else (kafka-clients alone loads hundreds of classes);
   * otherwise the module's own {@link InstrumentationModule#mayMatch}.
   */
  private static DeferringInstrumentation.ClassFileFilter classFileFilter(
      InstrumentationModule module) {
    Set<String> internalNames = new HashSet<>();
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
   * then its types are woven in the bootstrap loader only and the already-loaded ones are
   * retransformed.
   */
  private void installBootstrapModule(InstalledModule entry, List<String> bridge) {
    String failure = BootstrapBridge.install(instrumentation, agentLoader, bridge);
    if (failure != null) {
      if (entry.moduleSwitch().turnOff(ModuleSwitch.State.INCOMPATIBLE, failure)) {
        Log.LOG.log(
            Level.WARNING,
            "faultline: instrumentation module " + entry.name() + " is off: " + failure);
      }
      return;
    }
    ModuleTransformer transformer =
        transformer(
            entry,
            true,
            new ErrorHook(
                BootstrapBridge.ERRORS_CLASS.replace('.', '/'), "suppressed", entry.name()));
    if (transformer == null) {
      return;
    }
    transformers.put(entry, transformer);
    DeferringInstrumentation.ClassFileFilter names = classFileFilter(entry.module());
    addTransformer(
        transformer,
        (internalName, loader, classFile) ->
            loader == null && names.mayTransform(internalName, loader, classFile));
    retransformLoaded(entry, transformer, true);
  }

  /**
   * Retransforms the loaded classes the module targets: by name, or, for a module that matches
   * class files, each loaded class its gate and its types accept (a late attach only). The loaded
   * classes are scanned again until a scan finds no new target: one whose loading was under way
   * while the transformer was added may appear only in a later scan.
   */
  private void retransformLoaded(
      InstalledModule entry, ModuleTransformer transformer, boolean bootstrap) {
    Set<String> names = new HashSet<>();
    boolean byName = true;
    for (TypeInstrumentation type : entry.module().types()) {
      if (type.typeName() == null) {
        byName = false;
      } else {
        names.add(type.typeName());
      }
    }
    Set<Class<?>> done = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (int round = 0; round < LATE_LOOKUP_ROUNDS; round++) {
      List<Class<?>> targets = new ArrayList<>();
      for (Class<?> type : instrumentation.getAllLoadedClasses()) {
        if (done.contains(type)) {
          continue;
        }
        ClassLoader loader = type.getClassLoader();
        if ((loader == null) != bootstrap || !instrumentation.isModifiableClass(type)) {
          continue;
        }
        String name = type.getName();
        if (names.contains(name)) {
          targets.add(type);
        } else if (!byName && round == 0 && loader != null && seesAgent.test(loader)) {
          String internalName = name.replace('.', '/');
          byte[] classFile = ClassFileBytes.read(loader, internalName);
          if (classFile != null
              && entry.module().mayMatch(internalName, loader, classFile)
              && transformer.wouldWeave(internalName, classFile)) {
            targets.add(type);
          }
        }
      }
      if (targets.isEmpty()) {
        return;
      }
      for (Class<?> type : targets) {
        done.add(type);
        try {
          instrumentation.retransformClasses(type);
        } catch (Throwable e) {
          AgentErrors.weaveFailed(entry.name(), type.getName(), e);
        }
      }
    }
  }

  /**
   * Whether the class loader of a target resolves our classes to the agent's own. The answer is
   * cached per loader, and no lock is held while it is found: finding it loads a class through that
   * loader, which may wait for a lock an application thread holds, and that thread may be in this
   * matcher at the same moment (it was, beside the OpenTelemetry agent).
   */
  private static final class SeesAgentClasses implements Predicate<ClassLoader> {

    /** Loaders of other agents, which never see ours; told by their class name, never loaded. */
    private static final List<String> OTHER_AGENTS_LOADERS =
        List.of(
            "io.opentelemetry.javaagent.bootstrap.AgentClassLoader",
            "io.opentelemetry.javaagent.tooling.ExtensionClassLoader",
            "datadog.trace.bootstrap.DatadogClassLoader",
            "co.elastic.apm.agent.bci.classloading.IndyPluginClassLoader");

    private final Map<ClassLoader, Boolean> seen = Collections.synchronizedMap(new WeakHashMap<>());

    @Override
    public boolean test(ClassLoader loader) {
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
          Log.LOG.log(
              Level.INFO,
              "faultline: not instrumenting classes of "
                  + loader
                  + ": it has a Faultline copy of its own");
        }
        return same;
      } catch (ClassNotFoundException | LinkageError e) {
        Log.LOG.log(
            Level.INFO,
            "faultline: not instrumenting classes of "
                + loader
                + ": it does not delegate to the class loader of the agent");
        return false;
      }
    }
  }
}
