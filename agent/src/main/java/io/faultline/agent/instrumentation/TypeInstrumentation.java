package io.faultline.agent.instrumentation;

import java.util.List;
import java.util.Objects;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * The advice one {@link InstrumentationModule} weaves into the types that match {@link
 * #typeMatcher()}.
 *
 * @param typeMatcher which types, by name (e.g. {@code named(...)}, {@code nameStartsWith(...)});
 *     it is evaluated for every class the application loads, so keep it to names
 * @param advice the methods and the advice class for each
 * @param typeName the one type's binary name when the matcher is exactly that name ({@link
 *     #forType}), else null
 */
public record TypeInstrumentation(
    ElementMatcher<? super TypeDescription> typeMatcher,
    List<AdviceBinding> advice,
    String typeName) {

  /** Copies. */
  public TypeInstrumentation {
    Objects.requireNonNull(typeMatcher, "typeMatcher");
    advice = List.copyOf(advice);
    if (advice.isEmpty()) {
      throw new IllegalArgumentException("a type instrumentation needs at least one advice");
    }
  }

  /** The types {@code typeMatcher} matches, with {@code advice}. */
  public TypeInstrumentation(
      ElementMatcher<? super TypeDescription> typeMatcher, List<AdviceBinding> advice) {
    this(typeMatcher, advice, null);
  }

  /** The type named {@code typeName} exactly, with {@code advice}. */
  public static TypeInstrumentation forType(String typeName, AdviceBinding... advice) {
    return new TypeInstrumentation(ElementMatchers.named(typeName), List.of(advice), typeName);
  }

  /**
   * One advice class applied to the methods that match.
   *
   * @param methods which methods of the matched type (declared there, not inherited)
   * @param adviceClassName the advice class, by name, so it is never loaded by matching; it must be
   *     in the agent jar
   * @param required whether the module is incompatible when no declared method of a matched type
   *     matches (a method renamed or removed in this library version): it is then turned off as a
   *     whole rather than half-woven
   */
  public record AdviceBinding(
      ElementMatcher<? super MethodDescription> methods, String adviceClassName, boolean required) {

    /** Requires every part. */
    public AdviceBinding {
      Objects.requireNonNull(methods, "methods");
      Objects.requireNonNull(adviceClassName, "adviceClassName");
    }

    /** A required binding. */
    public static AdviceBinding of(
        ElementMatcher<? super MethodDescription> methods, String adviceClassName) {
      return new AdviceBinding(methods, adviceClassName, true);
    }
  }
}
