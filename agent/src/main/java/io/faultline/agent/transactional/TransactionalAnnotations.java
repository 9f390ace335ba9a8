package io.faultline.agent.transactional;

import io.faultline.agent.AgentRuntime;
import io.faultline.agent.instrumentation.BytePattern;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which annotations mark a transactional method, and what the annotation on a method says about its
 * propagation (read reflectively by name, so no Spring or JTA class is needed).
 */
final class TransactionalAnnotations {

  private static final Set<String> BUILT_IN =
      Set.of(
          "org.springframework.transaction.annotation.Transactional",
          "jakarta.transaction.Transactional",
          "javax.transaction.Transactional");

  private static volatile Set<String> configured;
  private static volatile Descriptors descriptors;

  private TransactionalAnnotations() {}

  /** Whether {@code annotationName} marks a transactional method or class. */
  static boolean isTransactional(String annotationName) {
    return names().contains(annotationName);
  }

  /** The annotation names that mark a transactional method or class: built-in and configured. */
  static Set<String> names() {
    Set<String> names = configured;
    if (names != null) {
      return names;
    }
    // Types are matched once the application runs, after the agent's runtime is in place; before
    // that only the built-in names count (and nothing is cached).
    return AgentRuntime.current()
        .map(
            runtime -> {
              Set<String> all = new HashSet<>(BUILT_IN);
              Arrays.stream(runtime.config().get(TransactionalKeys.ANNOTATIONS).split(","))
                  .map(String::trim)
                  .filter(s -> !s.isEmpty())
                  .forEach(all::add);
              Set<String> frozen = Set.copyOf(all);
              configured = frozen;
              return frozen;
            })
        .orElse(BUILT_IN);
  }

  /**
   * The class-file descriptors ({@code La/b/C;}) of {@link #names()} whose simple name is not
   * {@code Transactional}: a search for {@code /Transactional;} finds all of those.
   */
  static List<BytePattern> otherDescriptors() {
    Set<String> names = names();
    Descriptors known = descriptors;
    if (known != null && known.of() == names) {
      return known.bytes();
    }
    Descriptors fresh = new Descriptors(names, List.copyOf(otherDescriptors(names)));
    descriptors = fresh;
    return fresh.bytes();
  }

  /** The descriptors of those of {@code names} that a search for {@code /Transactional;} misses. */
  static List<BytePattern> otherDescriptors(Set<String> names) {
    List<BytePattern> other = new ArrayList<>();
    for (String name : names) {
      if (!name.endsWith(".Transactional")) {
        other.add(BytePattern.of("L" + name.replace('.', '/') + ";"));
      }
    }
    return other;
  }

  /** Descriptors with the name set they were built from (it changes once, when configured). */
  private record Descriptors(Set<String> of, List<BytePattern> bytes) {}

  /** The transactional annotation on {@code method}, else on its class; null when none. */
  static Annotation of(Method method) {
    for (Annotation a : method.getDeclaredAnnotations()) {
      if (isTransactional(a.annotationType().getName())) {
        return a;
      }
    }
    for (Annotation a : method.getDeclaringClass().getDeclaredAnnotations()) {
      if (isTransactional(a.annotationType().getName())) {
        return a;
      }
    }
    return null;
  }

  /**
   * The propagation as written: Spring's {@code propagation()}, JTA's {@code value()} (TxType), or
   * {@code unknown}.
   */
  static String propagation(Annotation annotation) {
    if (annotation == null) {
      return "unknown";
    }
    for (String attribute : new String[] {"propagation", "value"}) {
      try {
        Method m = annotation.annotationType().getMethod(attribute);
        Object value = m.invoke(annotation);
        if (value instanceof Enum<?> e) {
          return e.name();
        }
      } catch (ReflectiveOperationException | RuntimeException e) {
        // not this attribute; try the next
      }
    }
    return "unknown";
  }

  /** What a propagation does to an active transaction, in words. */
  static String effect(String propagation) {
    return switch (propagation) {
      case "NESTED" -> "savepoint (a PostgreSQL subtransaction)";
      case "REQUIRED", "SUPPORTS", "MANDATORY" -> "joins the outer transaction";
      case "REQUIRES_NEW" -> "new transaction on a second connection (the outer one is suspended)";
      case "NOT_SUPPORTED" -> "suspends the outer transaction";
      case "NEVER" -> "throws: a transaction is active";
      default -> "unknown";
    };
  }
}
