package io.faultline.junit;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * What a test fails on: the finding ids and the per-transaction budgets (-1: none), each from the
 * annotation nearest the test: on the method, then its class, then each enclosing class of a
 * {@code @Nested} one.
 */
record TestPolicy(Set<String> failOn, int maxSavepoints, int maxNesting, long maxStatements) {

  static final List<String> DEFAULT_FAIL_ON =
      List.of(
          FailOn.SAVEPOINT_AFTER_ROW_LOCK,
          FailOn.SUBTRANSACTION_OVERFLOW,
          FailOn.RECONNECT_NO_JITTER);

  static TestPolicy of(ExtensionContext context) {
    Set<String> failOn =
        nearest(context, FailOn.class)
            .map(a -> ordered(a.value()))
            .or(() -> nearest(context, FaultlineTest.class).map(a -> ordered(a.failOn())))
            .orElseGet(() -> new LinkedHashSet<>(DEFAULT_FAIL_ON));
    return new TestPolicy(
        failOn,
        budget(context, MaxSavepoints.class, MaxSavepoints::value),
        budget(context, MaxNesting.class, MaxNesting::value),
        budget(context, MaxStatements.class, MaxStatements::value));
  }

  /** In the order written, so the failure message lists them so. */
  private static Set<String> ordered(String[] ids) {
    return new LinkedHashSet<>(List.of(ids));
  }

  private static <A extends Annotation> int budget(
      ExtensionContext context, Class<A> type, Function<A, Integer> value) {
    Optional<A> annotation = nearest(context, type);
    if (annotation.isEmpty()) {
      return -1;
    }
    int budget = value.apply(annotation.get());
    if (budget < 0) {
      throw new IllegalArgumentException(
          "@" + type.getSimpleName() + "(" + budget + "): a budget cannot be negative");
    }
    return budget;
  }

  private static <A extends Annotation> Optional<A> nearest(
      ExtensionContext context, Class<A> type) {
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      Optional<AnnotatedElement> element = c.getElement();
      if (element.isPresent()) {
        Optional<A> found = AnnotationSupport.findAnnotation(element.get(), type);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }
}
