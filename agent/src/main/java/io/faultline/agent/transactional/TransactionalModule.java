package io.faultline.agent.transactional;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.faultline.agent.instrumentation.ClassFileBytes;
import io.faultline.agent.instrumentation.InstrumentationModule;
import io.faultline.agent.instrumentation.ModuleSwitch;
import io.faultline.agent.instrumentation.TypeInstrumentation;
import io.faultline.agent.instrumentation.TypeInstrumentation.AdviceBinding;
import java.util.List;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * Weaves every method annotated with a transactional annotation (or every public method of an
 * annotated class) so {@link TransactionalNesting} sees them entered inside one another. Types are
 * matched by the annotations' names, read from the class file, never loaded.
 */
public final class TransactionalModule implements InstrumentationModule {

  /** The module's name. */
  public static final String NAME = "transactional-annotations";

  /** The end of the descriptor of every built-in transactional annotation, in a class file. */
  private static final byte[] TRANSACTIONAL_DESCRIPTOR_END =
      "/Transactional;".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

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
  public boolean mayWeave(String className, ClassLoader loader, byte[] classFile) {
    return loader != null
        && !isLibrary(className)
        && ClassFileBytes.contains(classFile, TRANSACTIONAL_DESCRIPTOR_END);
  }

  /**
   * Libraries whose own classes are never an application's transactional ones: Spring's, and the
   * ones the agent instruments, whose hundreds of classes load while it starts. Decided by name,
   * before the class file is read.
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
          "org.postgresql.");

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
   * declare it: every other class is left alone without being parsed.
   */
  @Override
  public boolean mayMatch(String internalName, ClassLoader loader, byte[] classFile) {
    if (loader == null || isLibrary(internalName)) {
      return false;
    }
    for (byte[] descriptor : TransactionalAnnotations.descriptors()) {
      if (ClassFileBytes.contains(classFile, descriptor)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<TypeInstrumentation> types() {
    ElementMatcher.Junction<AnnotationDescription> transactional =
        new ElementMatcher.Junction.AbstractBase<>() {
          @Override
          public boolean matches(AnnotationDescription annotation) {
            return TransactionalAnnotations.isTransactional(
                annotation.getAnnotationType().getName());
          }
        };
    ElementMatcher.Junction<MethodDescription> annotatedMethod =
        ElementMatchers.declaresAnnotation(transactional);
    ElementMatcher.Junction<TypeDescription> annotatedType =
        ElementMatchers.declaresAnnotation(transactional);
    ElementMatcher.Junction<TypeDescription> types =
        not(nameStartsWith("org.springframework."))
            .and(not(ElementMatchers.isInterface()))
            .and(annotatedType.or(ElementMatchers.declaresMethod(annotatedMethod)));
    ElementMatcher.Junction<MethodDescription> methods =
        not(isConstructor())
            .and(not(isAbstract()))
            .and(not(isSynthetic()))
            .and(
                annotatedMethod.or(
                    isPublic().and(not(isStatic())).and(isDeclaredBy(annotatedType))));
    return List.of(
        new TypeInstrumentation(
            types,
            List.of(new AdviceBinding(methods, TransactionalAdvice.class.getName(), false))));
  }
}
