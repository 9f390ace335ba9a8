package io.faultline.agent.instrumentation;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Finds the loaded classes behind the {@link DeferredTransformer.EarlyClass}es of a start. A class
 * whose class file went through the transformer may not be defined yet when the start ends (its
 * loader is between the transformer and the definition), so what is missing is looked for again a
 * few times; a class that never appears (its definition failed, its loader is gone) is dropped.
 */
final class LateClasses {

  private LateClasses() {}

  /** The loaded classes of {@code early}, looked for in at most {@code rounds} rounds. */
  static List<Class<?>> find(
      Instrumentation instrumentation,
      List<DeferredTransformer.EarlyClass> early,
      int rounds,
      long pauseMillis) {
    Map<String, List<DeferredTransformer.EarlyClass>> missing = new HashMap<>();
    for (DeferredTransformer.EarlyClass e : early) {
      missing.computeIfAbsent(e.name(), n -> new ArrayList<>()).add(e);
    }
    List<Class<?>> found = new ArrayList<>();
    for (int round = 0; round < rounds && !missing.isEmpty(); round++) {
      if (round > 0) {
        LockSupport.parkNanos(pauseMillis * 1_000_000L);
      }
      for (Class<?> type : instrumentation.getAllLoadedClasses()) {
        List<DeferredTransformer.EarlyClass> candidates = missing.get(type.getName());
        if (candidates != null && candidates.removeIf(e -> e.is(type))) {
          found.add(type);
          if (candidates.isEmpty()) {
            missing.remove(type.getName());
          }
        }
      }
    }
    return found;
  }
}
