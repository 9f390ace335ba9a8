package io.faultline.agent.transactional;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Whether a class loader can see one of the transactional annotation types, looked up once per
 * loader as a resource (nothing is loaded). Only such a loader's classes are matched by their
 * annotations, which means parsing every class file: an application without Spring's, Jakarta's,
 * javax's or a configured transactional annotation never pays for it, and in one that has them the
 * class files of loaders that cannot see them (the annotation would be invisible there) are not
 * parsed either.
 */
final class SeesTransactionalAnnotation extends ElementMatcher.Junction.AbstractBase<ClassLoader> {

  private final Map<ClassLoader, Boolean> seen = Collections.synchronizedMap(new WeakHashMap<>());

  @Override
  public boolean matches(ClassLoader loader) {
    if (loader == null) {
      return false;
    }
    Boolean known = seen.get(loader);
    if (known == null) {
      known = seesAny(loader);
      seen.put(loader, known);
    }
    return known;
  }

  private static boolean seesAny(ClassLoader loader) {
    for (String name : TransactionalAnnotations.names()) {
      try {
        if (loader.getResource(name.replace('.', '/') + ".class") != null) {
          return true;
        }
      } catch (RuntimeException e) {
        // A loader that cannot answer is asked about its classes, as before this check.
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "sees a transactional annotation";
  }
}
