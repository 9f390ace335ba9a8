package io.faultline.agent.instrumentation;

import io.faultline.agent.weave.AdviceReader;
import io.faultline.agent.weave.ClassWeaver;
import io.faultline.agent.weave.ErrorHook;
import io.faultline.agent.weave.MethodAdvice;
import io.faultline.core.Loggers;
import java.lang.System.Logger.Level;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.objectweb.asm.Opcodes;

/**
 * One installed module's class-file transformer: weaves the module's advice into the classes its
 * type instrumentations name or accept, with {@link ClassWeaver}. The advice classes are read and
 * parsed once, when the module is installed, on the agent's thread; a transform only parses and
 * rewrites the class file it is given. It loads no class and takes no lock an application thread
 * could hold.
 */
final class ModuleTransformer implements ClassFileTransformer {

  private static final System.Logger LOG = Loggers.get(ModuleTransformer.class.getName());

  /** Internal-name prefixes an ordinary module never weaves: our own classes and the JDK's. */
  private static final List<String> IGNORED =
      List.of("io/faultline/", "java/", "jdk/", "sun/", "com/sun/");

  private final InstalledModule entry;
  private final boolean bootstrap;
  private final Predicate<ClassLoader> seesAgent;
  private final ErrorHook errors;
  private final Map<String, List<TypeInstrumentation>> named = new HashMap<>();
  private final List<TypeInstrumentation> filtered = new ArrayList<>();
  private final Map<String, MethodAdvice> advice = new HashMap<>();

  /**
   * Reads every advice class of {@code entry}'s module from {@code agentLoader} (a loader of the
   * agent's own code: see {@link AgentClassFiles}).
   *
   * @throws IllegalArgumentException when an advice class is missing or cannot be woven, naming it
   */
  ModuleTransformer(
      InstalledModule entry,
      ClassLoader agentLoader,
      boolean bootstrap,
      Predicate<ClassLoader> seesAgent,
      ErrorHook errors) {
    this.entry = entry;
    this.bootstrap = bootstrap;
    this.seesAgent = seesAgent;
    this.errors = errors;
    for (TypeInstrumentation type : entry.module().types()) {
      if (type.typeName() != null) {
        named.computeIfAbsent(type.typeName().replace('.', '/'), n -> new ArrayList<>()).add(type);
      } else {
        filtered.add(type);
      }
      for (TypeInstrumentation.AdviceBinding binding : type.advice()) {
        advice.computeIfAbsent(binding.adviceClassName(), n -> read(agentLoader, n));
      }
    }
  }

  private static MethodAdvice read(ClassLoader agentLoader, String className) {
    byte[] classFile = ClassFileBytes.read(agentLoader, className.replace('.', '/'));
    if (classFile == null) {
      throw new IllegalArgumentException("advice class " + className + " is not in the agent");
    }
    // Whether the advice's code only uses public members once inlined is a property of the build,
    // checked for every shipped advice class by ShippedAdviceIsInlinableTest: checking it here
    // read and parsed another ~30 class files at every start.
    return AdviceReader.read(classFile);
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String internalName,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classFile) {
    if (internalName == null || classFile == null) {
      return null;
    }
    try {
      if (!entry.moduleSwitch().active() || !reaches(loader, internalName)) {
        return null;
      }
      return weave(internalName, classFile);
    } catch (Throwable e) {
      AgentErrors.weaveFailed(entry.name(), internalName.replace('/', '.'), e);
      return null;
    }
  }

  private boolean reaches(ClassLoader loader, String internalName) {
    if (bootstrap) {
      return loader == null;
    }
    if (loader == null || !seesAgent.test(loader)) {
      return false;
    }
    if (named.containsKey(internalName)) {
      return true;
    }
    if (filtered.isEmpty()) {
      return false;
    }
    for (String prefix : IGNORED) {
      if (internalName.startsWith(prefix)) {
        return false;
      }
    }
    return true;
  }

  /** Whether it weaves classes of the bootstrap loader (and only those). */
  boolean bootstrap() {
    return bootstrap;
  }

  /** Whether a type instrumentation of the module names {@code internalName}. */
  boolean names(String internalName) {
    return named.containsKey(internalName);
  }

  /** Whether a type instrumentation of the module accepts types from their class file. */
  boolean filters() {
    return !filtered.isEmpty();
  }

  /** Whether a transform would weave {@code classFile} (for classes loaded before the install). */
  boolean wouldWeave(String internalName, byte[] classFile) {
    List<TypeInstrumentation> candidates = candidates(internalName);
    if (candidates.isEmpty()) {
      return false;
    }
    ClassWeaver.Outline outline = ClassWeaver.outline(classFile);
    for (TypeInstrumentation type : candidates) {
      if (!instruments(type, outline.type())) {
        continue;
      }
      for (TypeInstrumentation.AdviceBinding binding : type.advice()) {
        for (ClassWeaver.MethodInfo m : outline.methods()) {
          if (binding.methods().matches(m)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The woven class file, or null to leave it; reports refusals and missing methods. */
  byte[] weave(String internalName, byte[] classFile) {
    List<TypeInstrumentation> candidates = candidates(internalName);
    String typeName = internalName.replace('/', '.');
    byte[] current = classFile;
    // Read once for matching and weaving, and again only after a weave changed the class file.
    ClassWeaver.Outline outline = null;
    boolean changed = false;
    for (TypeInstrumentation type : candidates) {
      if (outline == null) {
        outline = ClassWeaver.outline(current);
      }
      // A class without methods (a marker interface) is never a target, whatever its type says.
      if (outline.methods().isEmpty() || !instruments(type, outline.type())) {
        continue;
      }
      List<TypeInstrumentation.AdviceBinding> bindings = type.advice();
      // Which bindings each method matches, from the class file without its code.
      Map<String, List<Integer>> matches = new HashMap<>();
      int[] perBinding = new int[bindings.size()];
      for (ClassWeaver.MethodInfo m : outline.methods()) {
        for (int b = 0; b < bindings.size(); b++) {
          if (bindings.get(b).methods().matches(m)) {
            perBinding[b]++;
            matches.computeIfAbsent(m.name() + m.descriptor(), k -> new ArrayList<>()).add(b);
          }
        }
      }
      for (int b = 0; b < bindings.size(); b++) {
        if (bindings.get(b).required() && perBinding[b] == 0) {
          incompatible(
              typeName + " has no method matching " + bindings.get(b).methods(), bindings.get(b));
          return null;
        }
      }
      int passes = matches.values().stream().mapToInt(List::size).max().orElse(0);
      // Usually one pass; a method two bindings match gets the second advice in a second pass.
      for (int pass = 0; pass < passes; pass++) {
        int p = pass;
        if (outline == null) {
          outline = ClassWeaver.outline(current);
        }
        ClassWeaver.Result result =
            ClassWeaver.weave(
                outline,
                m -> {
                  List<Integer> mine = matches.get(m.name() + m.descriptor());
                  return mine == null || mine.size() <= p
                      ? null
                      : advice.get(bindings.get(mine.get(p)).adviceClassName());
                },
                errors);
        if (!result.refused().isEmpty()) {
          AgentErrors.weaveFailed(
              entry.name(), typeName, new IllegalStateException(result.refused().get(0)));
          return null;
        }
        if (result.classFile() != null) {
          current = result.classFile();
          outline = null;
          changed = true;
        }
      }
    }
    if (!changed || !entry.moduleSwitch().active()) {
      return null;
    }
    entry.woven(typeName);
    return current;
  }

  private void incompatible(String why, TypeInstrumentation.AdviceBinding binding) {
    if (entry
        .moduleSwitch()
        .turnOff(
            ModuleSwitch.State.INCOMPATIBLE, why + " (for " + binding.adviceClassName() + ")")) {
      LOG.log(
          Level.WARNING,
          "faultline: instrumentation module "
              + entry.name()
              + " is off: "
              + entry.moduleSwitch().reason()
              + ". This library version is not supported; the application runs unchanged.");
    }
  }

  private List<TypeInstrumentation> candidates(String internalName) {
    List<TypeInstrumentation> exact = named.get(internalName);
    if (filtered.isEmpty()) {
      return exact == null ? List.of() : exact;
    }
    List<TypeInstrumentation> all = new ArrayList<>(filtered);
    if (exact != null) {
      all.addAll(exact);
    }
    return all;
  }

  /** A synthetic class (a lambda's, a proxy) is never a target. */
  private static boolean instruments(TypeInstrumentation type, ClassWeaver.ClassInfo info) {
    return (info.access() & Opcodes.ACC_SYNTHETIC) == 0 && type.instruments(info);
  }
}
