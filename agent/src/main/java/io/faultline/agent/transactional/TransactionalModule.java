package io.faultline.agent.transactional;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;

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
