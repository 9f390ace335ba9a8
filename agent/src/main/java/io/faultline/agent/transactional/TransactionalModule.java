package io.faultline.agent.transactional;

import static io.faultline.agent.instrumentation.MethodMatcher.isAbstract;
import static io.faultline.agent.instrumentation.MethodMatcher.isConstructor;
import static io.faultline.agent.instrumentation.MethodMatcher.isPublic;
import static io.faultline.agent.instrumentation.MethodMatcher.isStatic;
import static io.faultline.agent.instrumentation.MethodMatcher.isSynthetic;
import static io.faultline.agent.instrumentation.MethodMatcher.not;
import static io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding.besides;

import io.faultline.agent.instrumentation.BytePattern;
import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.MethodMatcher;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import java.util.List;
import org.objectweb.asm.Opcodes;

/**
 * Weaves every method annotated with a transactional annotation (or every public method of an
 * annotated class) so {@link TransactionalNesting} sees them entered inside one another. Types are
 * matched by the annotations' names, read from the class file, never loaded.
 */
public final class TransactionalModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "transactional-annotations";

  /** The end of the descriptor of every built-in transactional annotation, in a class file. */
  private static final BytePattern TRANSACTIONAL_DESCRIPTOR_END = BytePattern.of("/Transactional;");

  /** Read by the advice. */
  public static final ModuleSwitch SWITCH = ModuleSwitch.of(NAME);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String feature() {
    return TransactionalKeys.FEATURE;
  }

  /**
   * Application classes whose class file names an annotation type called {@code ...Transactional}
   * (Spring's, Jakarta's, javax's; a class with only a configured annotation of another name is
   * woven when it loads after the installation, not when it loaded before).
   */
  @Override
  public boolean mayWeave(String internalName, ClassLoader loader, byte[] classFile) {
    return loader != null
        && !isLibrary(internalName)
        && TRANSACTIONAL_DESCRIPTOR_END.foundIn(classFile);
  }

  /**
   * Libraries whose own classes are never an application's transactional ones: Spring's, the ones
   * the agent instruments, whose hundreds of classes load while it starts, and Faultline's. Decided
   * by name, before the class file is read.
   */
  private static boolean isLibrary(String name) {
    for (String prefix : LIBRARIES) {
      if (startsWithPackage(name, prefix)) {
        return true;
      }
    }
    return false;
  }

  private static final List<String> LIBRARIES =
      List.of(
          "org.springframework.",
          "org.apache.kafka.",
          "org.jooq.",
          "com.zaxxer.hikari.",
          "org.postgresql.",
          // Faultline's own: no module weaves them (ModuleTransformer).
          "io.faultline.");

  /** Whether {@code name}, binary (dots) or internal (slashes), starts with {@code prefix}. */
  private static boolean startsWithPackage(String name, String prefix) {
    if (name.length() < prefix.length()) {
      return false;
    }
    for (int i = 0; i < prefix.length(); i++) {
      char c = name.charAt(i);
      char p = prefix.charAt(i);
      if (c != p && !(p == '.' && c == '/')) {
        return false;
      }
    }
    return true;
  }

  /**
   * Only class files that name one of the transactional annotations (built-in or configured) can
   * declare it: every other class is left alone without being parsed. One search covers every
   * annotation called {@code Transactional} (the built-in ones among them): this runs for each
   * class an application loads, mostly before the JIT has compiled it.
   */
  @Override
  public boolean mayMatch(String internalName, ClassLoader loader, byte[] classFile) {
    if (loader == null || isLibrary(internalName)) {
      return false;
    }
    if (TRANSACTIONAL_DESCRIPTOR_END.foundIn(classFile)) {
      return true;
    }
    for (BytePattern descriptor : TransactionalAnnotations.otherDescriptors()) {
      if (descriptor.foundIn(classFile)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<TypeInstrumentation> types() {
    MethodMatcher annotatedMethod =
        MethodMatcher.annotatedWith(
            TransactionalAnnotations::isTransactional, "a transactional annotation");
    MethodMatcher methods =
        not(isConstructor())
            .and(not(isAbstract()))
            .and(not(isSynthetic()))
            .and(
                annotatedMethod.or(
                    isPublic()
                        .and(not(isStatic()))
                        .and(
                            MethodMatcher.declaredByTypeAnnotatedWith(
                                TransactionalAnnotations::isTransactional,
                                "a transactional annotation"))));
    return List.of(
        new TypeInstrumentation(
            null,
            type ->
                (type.access() & Opcodes.ACC_INTERFACE) == 0
                    && !startsWithPackage(type.internalName(), "org.springframework."),
            List.of(
                new AdviceBinding(
                    methods, besides(TransactionalModule.class, "TransactionalAdvice"), false))));
  }
}
