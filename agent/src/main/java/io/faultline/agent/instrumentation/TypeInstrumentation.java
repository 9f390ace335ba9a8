package io.faultline.agent.instrumentation;

import io.faultline.agent.weave.ClassWeaver.ClassInfo;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The advice one {@link InstrumentationModule} weaves into one type, named exactly ({@link
 * #forType}), or into the types a class-file test accepts ({@link #forTypes}).
 *
 * @param typeName the one type's binary name, or null for {@code typeFilter}
 * @param typeFilter which types, from their class file (modifiers, annotations), when {@code
 *     typeName} is null; it sees only classes the module's {@link InstrumentationModule#mayMatch}
 *     let through
 * @param advice the methods and the advice class for each
 */
public record TypeInstrumentation(
    String typeName, Predicate<ClassInfo> typeFilter, List<AdviceBinding> advice) {

  /** Copies; requires a name or a filter, and advice. */
  public TypeInstrumentation {
    if ((typeName == null) == (typeFilter == null)) {
      throw new IllegalArgumentException("a type instrumentation needs a type name or a filter");
    }
    advice = List.copyOf(advice);
    if (advice.isEmpty()) {
      throw new IllegalArgumentException("a type instrumentation needs at least one advice");
    }
  }

  /** The type named {@code typeName} exactly, with {@code advice}. */
  public static TypeInstrumentation forType(String typeName, AdviceBinding... advice) {
    Objects.requireNonNull(typeName, "typeName");
    return new TypeInstrumentation(typeName, null, List.of(advice));
  }

  /** The types whose class file {@code typeFilter} accepts, with {@code advice}. */
  public static TypeInstrumentation forTypes(
      Predicate<ClassInfo> typeFilter, AdviceBinding... advice) {
    Objects.requireNonNull(typeFilter, "typeFilter");
    return new TypeInstrumentation(null, typeFilter, List.of(advice));
  }

  /** Whether this instruments the class {@code type} (internal name in {@code type}). */
  boolean instruments(ClassInfo type) {
    return typeName != null
        ? typeName.replace('.', '/').equals(type.internalName())
        : typeFilter.test(type);
  }

  /**
   * One advice class applied to the methods that match.
   *
   * @param methods which methods of the matched type (declared there, not inherited)
   * @param adviceClassName the advice class, by name, so it is never loaded; it must be in the
   *     agent jar, its methods annotated with {@link io.faultline.agent.weave.Advice}
   * @param required whether the module is incompatible when no declared method of a matched type
   *     matches (a method renamed or removed in this library version): it is then turned off as a
   *     whole rather than half-woven
   */
  public record AdviceBinding(MethodMatcher methods, String adviceClassName, boolean required) {

    /** Requires every part. */
    public AdviceBinding {
      Objects.requireNonNull(methods, "methods");
      Objects.requireNonNull(adviceClassName, "adviceClassName");
    }

    /** A required binding. */
    public static AdviceBinding of(MethodMatcher methods, String adviceClassName) {
      return new AdviceBinding(methods, adviceClassName, true);
    }

    /**
     * The name of the advice class {@code simpleName} nested in {@code outer}. Naming it this way
     * rather than by {@code Advice.class.getName()} keeps it unloaded: a class literal loads the
     * class, and each load is start-up CPU the application pays for a class that only its bytes are
     * needed of. {@code ShippedAdviceIsInlinableTest} checks every shipped name.
     */
    public static String nestedIn(Class<?> outer, String simpleName) {
      return outer.getName() + '$' + simpleName;
    }

    /** The name of the advice class {@code simpleName} in the package of {@code neighbour}. */
    public static String besides(Class<?> neighbour, String simpleName) {
      return neighbour.getPackageName() + '.' + simpleName;
    }
  }
}
