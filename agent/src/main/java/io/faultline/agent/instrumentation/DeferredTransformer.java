package io.faultline.agent.instrumentation;

import java.lang.instrument.ClassFileTransformer;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The one class-file transformer the agent registers with the JVM in {@code premain}, so the
 * expensive part of starting (the instrumentation modules, their advice) can run on a background
 * thread while {@code main} starts. The modules' transformers are added to it through {@link
 * DeferringInstrumentation} and called in order for every class it sees.
 *
 * <p><b>Nobody waits here.</b> A class that loads before the start has ended loads as it is: an
 * application thread that loads it may hold class-loading locks the installation needs, so making
 * it wait can deadlock (it did, with a main class that links jOOQ or kafka-clients types, a Kafka
 * broker, a Spring Boot jar and the OpenTelemetry agent). Such a class is remembered when a module
 * {@linkplain Gate may weave} it, and the installing thread retransforms it once every module is in
 * place ({@link #endStartup}). The time application threads spend in this transformer during the
 * start is added up ({@link #startupNanos()}).
 */
public final class DeferredTransformer implements ClassFileTransformer {

  private final List<ClassFileTransformer> delegates = new CopyOnWriteArrayList<>();
  private final Gate gate;
  private final URL agentCode;
  private final Set<EarlyClass> early = ConcurrentHashMap.newKeySet();
  private final AtomicInteger inStartupTransform = new AtomicInteger();
  // Atomics, not LongAdders: every class the JVM loads passes here, mostly while this code is
  // still interpreted, where a LongAdder's VarHandles cost several times an atomic increment.
  private final AtomicLong startupNanos = new AtomicLong();
  private final AtomicLong classesDefined = new AtomicLong();
  private volatile boolean startup = true;
  private volatile Thread installer;

  /** Which modules may weave a class that loaded before the modules were installed. */
  @FunctionalInterface
  public interface Gate {
    /**
     * The modules that may weave the class; empty for none. The late weave reads a class file again
     * only for these modules' own matchers.
     *
     * @param internalName the internal name ({@code a/b/C})
     * @param loader the defining loader, null for the bootstrap loader
     * @param classFile the class file as the JVM read it
     */
    List<InstrumentationModule> modulesFor(
        String internalName, ClassLoader loader, byte[] classFile);

    /**
     * The modules' {@linkplain InstrumentationModule#targetNames() targets} by name (a JDK class
     * only for a module that weaves JDK classes, any other class only for the others), and each
     * module that names none asked in turn ({@link InstrumentationModule#mayWeave}).
     */
    static Gate of(List<InstrumentationModule> modules) {
      return new ModulesGate(modules);
    }
  }

  /**
   * {@link Gate#of}: one map lookup for every module that names its targets, as every class the
   * application loads during the start passes here, mostly before the JIT has compiled any of it.
   * Written without lambdas or streams: it is built in the agent's {@code premain}, on the
   * application's start path.
   */
  private static final class ModulesGate implements Gate {
    private final Map<String, List<InstrumentationModule>> applicationTargets = new HashMap<>();
    private final Map<String, List<InstrumentationModule>> jdkTargets = new HashMap<>();
    private final List<InstrumentationModule> unnamed = new ArrayList<>();

    ModulesGate(List<InstrumentationModule> all) {
      for (InstrumentationModule m : all) {
        try {
          add(m);
        } catch (RuntimeException | LinkageError e) {
          // A module that cannot name its targets misses the classes loaded during the start;
          // its installation reports what is wrong with it. The agent itself still starts.
        }
      }
    }

    private void add(InstrumentationModule m) {
      List<String> names = m.targetNames();
      if (names.isEmpty()) {
        unnamed.add(m);
        return;
      }
      Map<String, List<InstrumentationModule>> targets =
          m.bootstrapClasses().isEmpty() ? applicationTargets : jdkTargets;
      for (String name : names) {
        String internalName = name.replace('.', '/');
        List<InstrumentationModule> before = targets.get(internalName);
        targets.put(internalName, before == null ? List.of(m) : with(before, m));
      }
    }

    private static List<InstrumentationModule> with(
        List<InstrumentationModule> some, InstrumentationModule m) {
      if (some.contains(m)) {
        return some;
      }
      List<InstrumentationModule> all = new ArrayList<>(some);
      all.add(m);
      return List.copyOf(all);
    }

    @Override
    public List<InstrumentationModule> modulesFor(
        String internalName, ClassLoader loader, byte[] classFile) {
      Map<String, List<InstrumentationModule>> targets =
          loader == null ? jdkTargets : applicationTargets;
      List<InstrumentationModule> found = targets.isEmpty() ? null : targets.get(internalName);
      if (found == null) {
        found = List.of();
      }
      for (int i = 0; i < unnamed.size(); i++) {
        InstrumentationModule m = unnamed.get(i);
        if (m.mayWeave(internalName, loader, classFile)) {
          found = found.isEmpty() ? List.of(m) : with(found, m);
        }
      }
      return found;
    }
  }

  /**
   * A class seen before the installation ended: its name, (weakly) its loader and the modules that
   * may weave it.
   */
  public static final class EarlyClass {
    private final String name;
    private final WeakReference<ClassLoader> loader;
    private final int loaderHash;
    private final List<InstrumentationModule> modules;

    EarlyClass(String name, ClassLoader loader, List<InstrumentationModule> modules) {
      this.name = name;
      this.loader = new WeakReference<>(loader);
      this.loaderHash = System.identityHashCode(loader);
      this.modules = modules;
    }

    /** The binary name (dots). */
    public String name() {
      return name;
    }

    /** Whether the gate named {@code module} among those that may weave this class. */
    public boolean mayBeWovenBy(InstrumentationModule module) {
      return modules.contains(module);
    }

    /** Whether {@code type} is this class (same name, same defining loader). */
    public boolean is(Class<?> type) {
      return type.getName().equals(name) && type.getClassLoader() == loader.get();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof EarlyClass e
          && e.name.equals(name)
          && e.loaderHash == loaderHash
          && e.loader.get() == loader.get();
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, loaderHash);
    }
  }

  /**
   * A transformer whose remembered classes are those {@code gate} picks, never those loaded from
   * {@code agentCode} (the agent jar; null: none exempt).
   */
  public DeferredTransformer(Gate gate, URL agentCode) {
    this.gate = gate;
    this.agentCode = agentCode;
  }

  /** The thread that installs the modules: its own loads are not the application's time. */
  public void installingOn(Thread thread) {
    this.installer = thread;
  }

  void add(ClassFileTransformer transformer) {
    delegates.add(transformer);
  }

  boolean remove(ClassFileTransformer transformer) {
    return delegates.remove(transformer);
  }

  /**
   * Every module is installed: classes load through all of them from now on. Returns the classes
   * that loaded before (or while) they were added, once every load that began during the start has
   * left this transformer; waits for that at most {@code maxWaitMillis} (the caller is the agent's
   * own thread, never an application thread). A second call returns nothing.
   */
  public List<EarlyClass> endStartup(long maxWaitMillis) {
    startup = false;
    long deadline = System.nanoTime() + maxWaitMillis * 1_000_000L;
    while (inStartupTransform.get() > 0 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(200_000);
    }
    List<EarlyClass> seen = new ArrayList<>(early);
    early.clear();
    return seen;
  }

  /**
   * Classes defined since this transformer was added (retransformations not counted): when it stops
   * growing, the application's start-up has settled.
   */
  public long classesDefined() {
    return classesDefined.get();
  }

  /** Nanoseconds application threads spent in this transformer while the agent was starting. */
  public long startupNanos() {
    return startupNanos.get();
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (classBeingRedefined == null) {
      classesDefined.incrementAndGet();
    }
    if (startup) {
      // Counted before startup is read again, so endStartup() either sees this load in flight or
      // this load sees the start ended.
      inStartupTransform.incrementAndGet();
      try {
        if (startup
            && Thread.currentThread() != installer
            && internalName != null
            && !isAgentCode(protectionDomain)) {
          return transformDuringStartup(internalName, loader, classBeingRedefined, classfileBuffer);
        }
      } finally {
        inStartupTransform.decrementAndGet();
      }
    }
    return transformByModules(
        module, loader, internalName, classBeingRedefined, protectionDomain, classfileBuffer);
  }

  /**
   * During the start an application thread only looks at the class and goes on: even the modules
   * already installed are left to the agent's thread, which weaves what was remembered once all of
   * them are in. Weaving here would make the loading thread weave (the weaver's first use loads and
   * runs it cold) while the installation runs beside it.
   */
  private byte[] transformDuringStartup(
      String internalName,
      ClassLoader loader,
      Class<?> classBeingRedefined,
      byte[] classfileBuffer) {
    long started = System.nanoTime();
    try {
      if (classBeingRedefined == null) {
        remember(internalName, loader, classfileBuffer);
      }
      return null;
    } finally {
      startupNanos.addAndGet(System.nanoTime() - started);
    }
  }

  private void remember(String internalName, ClassLoader loader, byte[] classFile) {
    try {
      List<InstrumentationModule> modules = gate.modulesFor(internalName, loader, classFile);
      if (!modules.isEmpty()) {
        early.add(new EarlyClass(internalName.replace('/', '.'), loader, modules));
      }
    } catch (RuntimeException | LinkageError e) {
      // A gate that cannot decide lets the class through unremembered: never fail a load.
    }
  }

  private byte[] transformByModules(
      Module module,
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    byte[] current = classfileBuffer;
    boolean changed = false;
    for (ClassFileTransformer t : delegates) {
      // As the JVM does for its own transformers: one that throws changes nothing and the next
      // still runs (a module whose weave fails must not take another module's advice down).
      try {
        byte[] woven =
            t.transform(
                module, loader, internalName, classBeingRedefined, protectionDomain, current);
        if (woven != null) {
          current = woven;
          changed = true;
        }
      } catch (Throwable e) {
        // the module's listener has reported it
      }
    }
    return changed ? current : null;
  }

  private boolean isAgentCode(ProtectionDomain domain) {
    if (agentCode == null || domain == null) {
      return false;
    }
    CodeSource source = domain.getCodeSource();
    return source != null && agentCode.equals(source.getLocation());
  }
}
