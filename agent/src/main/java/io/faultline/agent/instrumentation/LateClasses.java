package io.faultline.agent.instrumentation;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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

  /**
   * The loaded classes of {@code early}, each with the early class it is, looked for in at most
   * {@code rounds} rounds.
   */
  static Map<Class<?>, DeferredTransformer.EarlyClass> find(
      Instrumentation instrumentation,
      List<DeferredTransformer.EarlyClass> early,
      int rounds,
      long pauseMillis) {
    Map<String, List<DeferredTransformer.EarlyClass>> missing = new HashMap<>();
    for (DeferredTransformer.EarlyClass e : early) {
      missing.computeIfAbsent(e.name(), n -> new ArrayList<>()).add(e);
    }
    Map<Class<?>, DeferredTransformer.EarlyClass> found = new LinkedHashMap<>();
    for (int round = 0; round < rounds && !missing.isEmpty(); round++) {
      if (round > 0) {
        LockSupport.parkNanos(pauseMillis * 1_000_000L);
      }
      for (Class<?> type : instrumentation.getAllLoadedClasses()) {
        List<DeferredTransformer.EarlyClass> candidates = missing.get(type.getName());
        DeferredTransformer.EarlyClass match = candidates == null ? null : take(candidates, type);
        if (match != null) {
          found.put(type, match);
          if (candidates.isEmpty()) {
            missing.remove(type.getName());
          }
        }
      }
    }
    return found;
  }

  private static DeferredTransformer.EarlyClass take(
      List<DeferredTransformer.EarlyClass> candidates, Class<?> type) {
    for (var it = candidates.iterator(); it.hasNext(); ) {
      DeferredTransformer.EarlyClass e = it.next();
      if (e.is(type)) {
        it.remove();
        return e;
      }
    }
    return null;
  }
}
